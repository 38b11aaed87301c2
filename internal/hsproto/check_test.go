package hsproto

import "testing"

func TestCheckExecPrecedence(t *testing.T) {
	// env for a handle opened under id 1 with one filter column, on the
	// write port.
	open := ExecEnv{Slots: 2, Opened: true, FilterColumns: 1}
	ro := open
	ro.ReadOnly = true
	hole := ExecEnv{Slots: 201} // id 1 below the highest opened id 200
	unauth := open
	unauth.Unauthenticated = true
	tests := []struct {
		name string
		line string
		env  ExecEnv
		want Error
	}{
		{"ok find", "1\t=\t1\t1", open, ErrNone},
		{"ok find read port", "1\t=\t1\t1", ro, ErrNone},
		{"unauth first", "1\t==\t0\t1\t0\t@\t0\t0", unauth, ErrUnauth},
		{"stmtnum beyond slots before everything", "5\t==\t0\t0\t1\t0\t@\t0\t0", open, ErrStmtnum},
		{"stmtnum no slots", "0\t=\t1\t1", ExecEnv{}, ErrStmtnum},
		{"stmtnum id 2^32-1", "4294967295\t=\t1\t1", open, ErrStmtnum},
		{"large slots", "4294967295\t=\t1\t1", ExecEnv{Slots: 1 << 32, Opened: true}, ErrNone},
		{"invalueslen before filters and op", "1\t==\t0\t1\t0\t@\t0\t0\tFF\t=\t9\t1", open, ErrInvalueslen},
		{"invalueslen before hole stmtnum", "1\t=\t1\t0\t1\t0\t@\t0\t0", hole, ErrInvalueslen},
		{"filtertype before op", "1\t==\t0\t1\t0\tFF\t=\t0\t1", open, ErrFiltertype},
		{"filterfld before op", "1\t==\t0\t1\t0\tF\t=\t1\t1", open, ErrFilterfld},
		{"filterfld of first filter before filtertype of second", "1\t=\t1\t0\t1\t0\tF\t=\t1\t1\tFF\t=\t0\t1", open, ErrFilterfld},
		{"filtertype of first filter before filterfld of second", "1\t=\t1\t0\t1\t0\tFF\t=\t0\t1\tF\t=\t7\t1", open, ErrFiltertype},
		{"filterfld on a hole", "1\t=\t1\t0\t1\t0\tF\t=\t0\t1", hole, ErrFilterfld},
		{"filterfld with none opened", "1\t=\t1\t0\t1\t0\tF\t=\t0\t1", ExecEnv{Slots: 2, Opened: true}, ErrFilterfld},
		{"hole stmtnum before op", "1\t==\t0", hole, ErrStmtnum},
		{"op before klen", "1\t==\t0", open, ErrOp},
		{"op before readonly", "1\t==\t1\t1\t1\t0\tU\tx", ro, ErrOp},
		{"op empty", "1", open, ErrOp},
		{"klen", "1\t=\t0", open, ErrKlen},
		{"klen non numeric", "1\t=\tone\t2", open, ErrKlen},
		{"klen before readonly insert", "1\t+\t0", ro, ErrKlen},
		{"klen before notimpl", "1\tS\t0", open, ErrKlen},
		{"notimpl", "1\tS\t1\tx", open, ErrNotimpl},
		{"notimpl on read port", "1\tS\t1\tx", ro, ErrNotimpl},
		{"insert readonly", "1\t+\t2\t99\tx", ro, ErrReadonly},
		{"insert ok", "1\t+\t2\t99\tx", open, ErrNone},
		{"insert ignores modop", "1\t+\t1\tx\t1\t0\tZ", open, ErrNone},
		{"insert still checks filters", "1\t+\t1\tx\t1\t0\tF\t=\t5\t1", open, ErrFilterfld},
		{"insert still checks IN", "1\t+\t1\tx\t1\t0\t@\t0\t0", open, ErrInvalueslen},
		{"readonly before modop", "1\t>\t1\t0\t2\t0\tZ", ro, ErrReadonly},
		{"modop", "1\t>\t1\t0\t2\t0\tZ", open, ErrModop},
		{"readonly update", "1\t=\t1\t1\t1\t0\tU\tx", ro, ErrReadonly},
		{"readonly delete", "1\t=\t1\t1\t1\t0\tD", ro, ErrReadonly},
		{"readonly inc", "1\t=\t1\t1\t1\t0\t+?\t1", ro, ErrReadonly},
		{"empty modop is a find on the read port", "1\t=\t1\t1\t1\t0\t\tx", ro, ErrNone},
		{"update ok", "1\t=\t1\t1\t1\t0\tU\tx", open, ErrNone},
		{"kpnum is the executor's", "1\t=\t9\t1", open, ErrNone},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := parseFresh([]byte(tt.line))
			if got := r.CheckExec(tt.env); got != tt.want {
				t.Errorf("CheckExec(%q) = %s, want %s", tt.line, got, tt.want)
			}
		})
	}
}

func TestCheckExecOtherCommands(t *testing.T) {
	for _, line := range []string{"", "X", "P\t1", "A\t1\t"} {
		if got := parseFresh([]byte(line)).CheckExec(ExecEnv{Slots: 10, Opened: true}); got != ErrCmd {
			t.Errorf("CheckExec(%q) = %s", line, got)
		}
	}
}

func TestClauseError(t *testing.T) {
	r := parseFresh([]byte("1\t=\t1\t0\t1\t0\tF\t=\t0\t1\tW\t<\t2\t1"))
	for n, want := range map[int]Error{-1: ErrFilterfld, 0: ErrFilterfld, 1: ErrFilterfld, 2: ErrFilterfld, 3: ErrNone} {
		if got := r.ClauseError(n); got != want {
			t.Errorf("ClauseError(%d) = %s, want %s", n, got, want)
		}
	}
}

func TestCheckAuth(t *testing.T) {
	tests := []struct {
		line, secret string
		want         Error
	}{
		{"A\t1\trdsecret", "rdsecret", ErrNone},
		{"A\t1\trdsecret\tjunk", "rdsecret", ErrNone},
		{"A\t1\twrong", "rdsecret", ErrUnauth},
		{"A\t1\t", "rdsecret", ErrUnauth},
		{"A\t1\trdsecre", "rdsecret", ErrUnauth},
		{"A\t1\trdsecrett", "rdsecret", ErrUnauth},
		{"A\t2\trdsecret", "rdsecret", ErrAuthtype},
		{"A\t11\trdsecret", "rdsecret", ErrAuthtype},
		{"A\t\trdsecret", "rdsecret", ErrAuthtype},
		{"A", "rdsecret", ErrAuthtype},
		{"A\t1\x00\trdsecret", "rdsecret", ErrAuthtype},
		{"A\t3\t", "", ErrAuthtype},
		// No secret: the empty key succeeds, any other fails.
		{"A\t1\t", "", ErrNone},
		{"A\t1", "", ErrNone},
		{"A\t1\tsomething", "", ErrUnauth},
		// The plugin compares over the raw token length the bytes left in
		// place by decoding: the decoded key then the raw tail.
		{"A\t1\ta\x01Bb", "a\x02b", ErrUnauth},
		{"A\t1\ta\x01Bb", "a\x02bb", ErrNone},
		{"A\t1\tsec\x01", "sec\x01", ErrNone}, // bad escape: decoding stops, bytes stay
		{"A\t1\t\x00", "\x00", ErrNone},       // no NULL token for keys
	}
	for _, tt := range tests {
		r := parseFresh([]byte(tt.line))
		if got := r.CheckAuth([]byte(tt.secret)); got != tt.want {
			t.Errorf("CheckAuth(%q, secret %q) = %s, want %s", tt.line, tt.secret, got, tt.want)
		}
	}
	if got := parseFresh([]byte("P\t1")).CheckAuth(nil); got != ErrCmd {
		t.Errorf("CheckAuth on P = %s", got)
	}
}
