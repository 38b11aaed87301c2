package hsproto

import (
	"math"
	"testing"
)

func TestErrorTable(t *testing.T) {
	want := map[Error]string{
		ErrNone:            "0\t1\n",
		ErrCmd:             "2\t1\tcmd\n",
		ErrUnauth:          "3\t1\tunauth\n",
		ErrAuthtype:        "3\t1\tauthtype\n",
		ErrOpenTable:       "1\t1\topen_table\n",
		ErrIdxnum:          "2\t1\tidxnum\n",
		ErrFld:             "2\t1\tfld\n",
		ErrStmtnum:         "2\t1\tstmtnum\n",
		ErrInvalueslen:     "2\t1\tinvalueslen\n",
		ErrFiltertype:      "2\t1\tfiltertype\n",
		ErrFilterfld:       "2\t1\tfilterfld\n",
		ErrOp:              "2\t1\top\n",
		ErrKlen:            "2\t1\tklen\n",
		ErrReadonly:        "2\t1\treadonly\n",
		ErrModop:           "2\t1\tmodop\n",
		ErrNotimpl:         "2\t1\tnotimpl\n",
		ErrLockTables:      "1\t1\tlock_tables\n",
		ErrTblnum:          "2\t1\ttblnum\n",
		ErrKpnum:           "2\t1\tkpnum\n",
		ErrFilterblob:      "2\t1\tfilterblob\n",
		ErrLinelen:         "2\t1\tlinelen\n",
		ErrCommit:          "1\t1\tcommit\n",
		ErrResultlen:       "1\t1\tresultlen\n",
		ErrDuplicateKey:    "1\t1\t121\n",
		ErrNoReferencedRow: "1\t1\t151\n",
		ErrRowIsReferenced: "1\t1\t152\n",
		ErrFKDepth:         "1\t1\t193\n",
		ErrStorage:         "1\t1\t1\n",
	}
	if len(want) != int(numErrors) {
		t.Fatalf("table has %d errors, test %d", numErrors, len(want))
	}
	for e, line := range want {
		if got := string(AppendError([]byte("x"), e)); got != "x"+line {
			t.Errorf("AppendError(%s) = %q, want %q", e, got, line)
		}
		if e == ErrNone {
			if e.Code() != 0 || e.Word() != "" || e.String() != "none" {
				t.Errorf("ErrNone: %d %q %q", e.Code(), e.Word(), e.String())
			}
			continue
		}
		if got := AppendUint(nil, uint64(e.Code())); string(got)+"\t1\t"+e.Word()+"\n" != line {
			t.Errorf("%s: Code %d Word %q", e, e.Code(), e.Word())
		}
		if e.String() != e.Word() {
			t.Errorf("String %q", e.String())
		}
	}
}

func TestResponses(t *testing.T) {
	tests := []struct {
		name string
		got  []byte
		want string
	}{
		{"ok", AppendOK(nil), "0\t1\n"},
		{"ok num", AppendOKNum(nil, 3), "0\t1\t3\n"},
		{"ok num zero", AppendOKNum(nil, 0), "0\t1\t0\n"},
		{"ok num 64", AppendOKNum(nil, math.MaxUint64), "0\t1\t18446744073709551615\n"},
		{"handler error", AppendHandlerError(nil, 121), "1\t1\t121\n"},
		{"no rows", AppendEnd(AppendResultHeader(nil, 4)), "0\t4\n"},
		{"no columns", AppendEnd(AppendResultHeader(nil, 0)), "0\t0\n"},
		{"appends", AppendOK([]byte("0\t1\n")), "0\t1\n0\t1\n"},
	}
	for _, tt := range tests {
		if string(tt.got) != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, tt.got, tt.want)
		}
	}
}

// TestFindResponse rebuilds recorded find replies from their values.
func TestFindResponse(t *testing.T) {
	s := func(v string) Value { return Value{B: []byte(v)} }
	null := Value{Null: true}
	tests := []struct {
		ncols int
		rows  []Value
		want  string // as recorded
	}{
		// 03-find-ops.case op_gt_ascending
		{2, []Value{s("4"), null, s("5"), s(""), s("6"), s("banana"), s("8"), s("fig"), s("9"), s("grape")},
			"0\t2\t4\t\x00\t5\t\t6\tbanana\t8\tfig\t9\tgrape\n"},
		// 05-escaping.case esc_response_low_bytes
		{2, []Value{s("\x00"), s("\x00\x01\x02\x03\x04\x05\x06\x07")},
			"0\t2\t\x01@\t\x01@\x01A\x01B\x01C\x01D\x01E\x01F\x01G\n"},
		{2, []Value{s("A\t\nB"), s("\x08\t\n\x0b\x0c\r\x0e\x0f")},
			"0\t2\tA\x01I\x01JB\t\x01H\x01I\x01J\x01K\x01L\x01M\x01N\x01O\n"},
		// esc_response_high_bytes_raw
		{2, []Value{s("\xff"), s("\x7f\x80\xc3\xa9\xff")}, "0\t2\t\xff\t\x7f\x80\xc3\xa9\xff\n"},
		// 02-find.case find_secondary_empty_string_key
		{2, []Value{s("5"), s("")}, "0\t2\t5\t\n"},
	}
	for _, tt := range tests {
		out := AppendResultHeader(nil, tt.ncols)
		for _, v := range tt.rows {
			out = AppendField(out, v)
		}
		out = AppendEnd(out)
		if string(out) != tt.want {
			t.Errorf("got %q, want %q", out, tt.want)
		}
	}
}

func TestCancelResponse(t *testing.T) {
	out := AppendOK(nil)
	mark := len(out)
	out = AppendResultHeader(out, 1)
	out = AppendField(out, Value{B: []byte("9")})
	out = AppendHandlerError(out[:mark], 121)
	if string(out) != "0\t1\n1\t1\t121\n" {
		t.Fatalf("%q", out)
	}
}
