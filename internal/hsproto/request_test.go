package hsproto

import (
	"bytes"
	"testing"
)

// TestParse pins how each kind of line parses; the wanted dumps follow
// NOTES.md and the recorded cases named in the comments.
func TestParse(t *testing.T) {
	tests := []struct {
		name, line, want string
	}{
		// Commands.
		{"empty line", "", "invalid"},
		{"leading tab", "\t1", "invalid"},
		{"unknown", "X", "invalid"},
		{"PP", "PP\t1\tconf", "invalid"},
		{"lower p", "p\t1\tconf\ttw\tPRIMARY\tk", "invalid"},
		{"word", "bogus", "invalid"},
		{"Q is a plain unknown command", "Q", "invalid"},
		{"slash later in a buffer", "/", "invalid"},
		{"A with more", "AA\t1\tx", "invalid"},
		{"digit first token", "1abc\t=\t1\t5", `exec id=1 op="=":eq vlen=1 keys=["5"] limit=0 offset=0`},

		// open_index.
		{"open", "P\t1\tconf\ttf\tPRIMARY\tk,a,b", `open id=1 db="conf" table="tf" index="PRIMARY" cols=["k" "a" "b"] fcols=[]`},
		{"open filter columns", "P\t1\tconf\ttf\tPRIMARY\tk,b\tb", `open id=1 db="conf" table="tf" index="PRIMARY" cols=["k" "b"] fcols=["b"]`},
		{"open extra ignored", "P\t1\tconf\ttf\tPRIMARY\tk\tb\tjunk\tmore", `open id=1 db="conf" table="tf" index="PRIMARY" cols=["k"] fcols=["b"]`},
		{"open short", "P", `open id=0 db="" table="" index="" cols=[] fcols=[]`},
		{"open short 2", "P\t1\tconf", `open id=1 db="conf" table="" index="" cols=[] fcols=[]`},
		{"open no index", "P\t1\tconf\ttw", `open id=1 db="conf" table="tw" index="" cols=[] fcols=[]`},
		{"open id digits only", "P\t1x2\tconf\ttf\tPRIMARY\ta", `open id=12 db="conf" table="tf" index="PRIMARY" cols=["a"] fcols=[]`},
		{"open id non numeric", "P\tabc\tconf\ttf\t\ta", `open id=0 db="conf" table="tf" index="" cols=["a"] fcols=[]`},
		{"open id wraps", "P\t4294967296\tconf\ttf\t0\ta", `open id=0 db="conf" table="tf" index="0" cols=["a"] fcols=[]`},
		{"open empty column name", "P\t1\tconf\ttf\tPRIMARY\tk,,v", `open id=1 db="conf" table="tf" index="PRIMARY" cols=["k" "" "v"] fcols=[]`},
		{"open trailing comma", "P\t1\tconf\ttf\tPRIMARY\tk,", `open id=1 db="conf" table="tf" index="PRIMARY" cols=["k" ""] fcols=[]`},
		{"open repeat", "P\t1\tconf\ttf\tPRIMARY\tb,k,b", `open id=1 db="conf" table="tf" index="PRIMARY" cols=["b" "k" "b"] fcols=[]`},
		{"open names are C strings", "P\t1\tco\x00nf\ttf\x00x\tia\x00\tk,a\x00,b\tc\x00", `open id=1 db="co" table="tf" index="ia" cols=["k" "a"] fcols=["c"]`},
		{"open names not unescaped", "P\t1\tc\x01Af\tt\tPRIMARY\tk", `open id=1 db="c\x01Af" table="t" index="PRIMARY" cols=["k"] fcols=[]`},

		// auth.
		{"auth", "A\t1\trdsecret", `auth type="1" key="rdsecret"`},
		{"auth extra ignored", "A\t1\trdsecret\tjunk", `auth type="1" key="rdsecret"`},
		{"auth bare", "A", `auth type="" key=""`},
		{"auth empty key", "A\t1\t", `auth type="1" key=""`},
		{"auth escaped key", "A\t1\tk\x01@y", `auth type="1" key="k\x00y"`},
		{"auth nul key is not null", "A\t1\t\x00", `auth type="1" key="\x00"`},

		// find: keys.
		{"find", "1\t=\t1\t3", `exec id=1 op="=":eq vlen=1 keys=["3"] limit=0 offset=0`},
		{"find lim", "1\t>=\t1\t8\t5\t0", `exec id=1 op=">=":ge vlen=1 keys=["8"] limit=5 offset=0`},
		{"find composite", "1\t=\t2\t20\t3\t10\t0", `exec id=1 op="=":eq vlen=2 keys=["20" "3"] limit=10 offset=0`},
		{"missing key tokens", "1\t=\t2\t20", `exec id=1 op="=":eq vlen=2 keys=["20"] limit=0 offset=0`},
		{"no key tokens", "1\t=\t1", `exec id=1 op="=":eq vlen=1 keys=[] limit=0 offset=0`},
		{"trailing tab key", "1\t=\t2\t20\t", `exec id=1 op="=":eq vlen=2 keys=["20" ""] limit=0 offset=0`},
		{"empty key", "1\t=\t1\t\t5\t0", `exec id=1 op="=":eq vlen=1 keys=[""] limit=5 offset=0`},
		{"null key", "1\t=\t1\t\x00", `exec id=1 op="=":eq vlen=1 keys=[NULL] limit=0 offset=0`},
		{"escaped key", "1\t=\t1\tA\x01I\x01JB", `exec id=1 op="=":eq vlen=1 keys=["A\t\nB"] limit=0 offset=0`},
		{"bad escape key", "1\t=\t1\tx\x010y\t2\t0", `exec id=1 op="=":eq vlen=1 keys=["x"] limit=2 offset=0`},
		{"vlen x1", "1\t=\tx1\t2", `exec id=1 op="=":eq vlen=1 keys=["2"] limit=0 offset=0`},
		{"vlen one", "1\t=\tone\t2", `exec id=1 op="=":eq vlen=0 keys=[] limit=2 offset=0`},
		{"vlen huge", "1\t=\t4294967295\ta", `exec id=1 op="=":eq vlen=4294967295 keys=["a"] limit=0 offset=0`},
		{"ops", "1\t<=\t1\t6\t10\t0", `exec id=1 op="<=":le vlen=1 keys=["6"] limit=10 offset=0`},
		{"op gt", "1\t>\t1\t3", `exec id=1 op=">":gt vlen=1 keys=["3"] limit=0 offset=0`},
		{"op lt", "1\t<\t1\t3", `exec id=1 op="<":lt vlen=1 keys=["3"] limit=0 offset=0`},
		{"op S", "1\tS\t1\tselect", `exec id=1 op="S":sql vlen=1 keys=["select"] limit=0 offset=0`},
		{"op ==", "1\t==\t1\t1", `exec id=1 op="==":invalid vlen=1 keys=["1"] limit=0 offset=0`},
		{"op !=", "1\t!=\t1\t1", `exec id=1 op="!=":invalid vlen=1 keys=["1"] limit=0 offset=0`},
		{"op =>", "1\t=>\t1\t1", `exec id=1 op="=>":invalid vlen=1 keys=["1"] limit=0 offset=0`},
		{"op <>", "1\t<>\t1\t1", `exec id=1 op="<>":invalid vlen=1 keys=["1"] limit=0 offset=0`},
		{"op empty", "1\t\t1\t1", `exec id=1 op="":invalid vlen=1 keys=["1"] limit=0 offset=0`},
		{"op missing", "1", `exec id=1 op="":invalid vlen=0 keys=[] limit=0 offset=0`},
		{"op >== ", "1\t>==\t1\t1", `exec id=1 op=">==":invalid vlen=1 keys=["1"] limit=0 offset=0`},

		// LIM.
		{"limit non numeric", "1\t>\t1\t0\tten\t0", `exec id=1 op=">":gt vlen=1 keys=["0"] limit=0 offset=0`},
		{"limit junk digits", "1\t>\t1\t0\t2x\t1y", `exec id=1 op=">":gt vlen=1 keys=["0"] limit=2 offset=1`},
		{"limit only", "1\t>\t1\t0\t3", `exec id=1 op=">":gt vlen=1 keys=["0"] limit=3 offset=0`},
		{"trailing tab after offset", "1\t>\t1\t0\t3\t1\t", `exec id=1 op=">":gt vlen=1 keys=["0"] limit=3 offset=1`},

		// IN.
		{"in", "1\t=\t1\t0\t10\t0\t@\t0\t3\t3\t1\t8", `exec id=1 op="=":eq vlen=1 keys=["0"] limit=10 offset=0 in=@0:3["3" "1" "8"]`},
		{"in zero", "1\t=\t1\t0\t10\t0\t@\t0\t0", `exec id=1 op="=":eq vlen=1 keys=["0"] limit=10 offset=0 in=@0:0[] err=invalueslen`},
		{"in zero stops parsing", "1\t=\t1\t0\t10\t0\t@\t0\t0\tF\t=\t0\t1\tU", `exec id=1 op="=":eq vlen=1 keys=["0"] limit=10 offset=0 in=@0:0[] err=invalueslen`},
		{"in missing values", "1\t=\t1\t0\t10\t0\t@\t0\t3\t7", `exec id=1 op="=":eq vlen=1 keys=["0"] limit=10 offset=0 in=@0:3["7"]`},
		{"in values never null", "1\t=\t1\t0\t10\t0\t@\t0\t2\t\x00\t\x01@", `exec id=1 op="=":eq vlen=1 keys=["0"] limit=10 offset=0 in=@0:2["\x00" "\x00"]`},
		{"in token only first byte", "1\t=\t1\t0\t10\t0\t@xyz\t1x\t2\ta\tb", `exec id=1 op="=":eq vlen=1 keys=["0"] limit=10 offset=0 in=@1:2["a" "b"]`},
		{"in then filter", "1\t=\t1\t0\t10\t0\t@\t0\t4\t1\t2\t3\t4\tF\t=\t0\t20", `exec id=1 op="=":eq vlen=1 keys=["0"] limit=10 offset=0 in=@0:4["1" "2" "3" "4"] filter=F:"=":eq:0:"20"`},
		{"in second key part", "1\t=\t2\t20\t0\t10\t0\t@\t1\t3\t3\t1\t2", `exec id=1 op="=":eq vlen=2 keys=["20" "0"] limit=10 offset=0 in=@1:3["3" "1" "2"]`},

		// Filters.
		{"filter", "1\t>=\t1\t0\t10\t0\tF\t=\t0\t20", `exec id=1 op=">=":ge vlen=1 keys=["0"] limit=10 offset=0 filter=F:"=":eq:0:"20"`},
		{"filter W", "1\t>=\t1\t0\t10\t0\tW\t<=\t0\t20", `exec id=1 op=">=":ge vlen=1 keys=["0"] limit=10 offset=0 filter=W:"<=":le:0:"20"`},
		{"two filters", "1\t>=\t1\t0\t10\t0\tF\t!=\t0\t20\tW\t>\t1\t\x00", `exec id=1 op=">=":ge vlen=1 keys=["0"] limit=10 offset=0 filter=F:"!=":ne:0:"20" filter=W:">":gt:1:NULL`},
		{"filter bad type", "1\t>=\t1\t0\t10\t0\tFF\t=\t0\t20", `exec id=1 op=">=":ge vlen=1 keys=["0"] limit=10 offset=0 err=filtertype`},
		{"filter bad type second", "1\t>=\t1\t0\t10\t0\tF\t=\t3\t20\tWx\t=\t0\t1\tU", `exec id=1 op=">=":ge vlen=1 keys=["0"] limit=10 offset=0 filter=F:"=":eq:3:"20" err=filtertype`},
		{"filter col lenient", "1\t>=\t1\t0\t10\t0\tF\t=\tx1\t20", `exec id=1 op=">=":ge vlen=1 keys=["0"] limit=10 offset=0 filter=F:"=":eq:1:"20"`},
		{"filter ops", "1\t>=\t1\t0\t10\t0\tF\t<>\t0\t1\tF\t==\t0\t1\tF\t~\t0\t1\tF\t\t0\t1\tF\t<=>\t0\t1", `exec id=1 op=">=":ge vlen=1 keys=["0"] limit=10 offset=0 filter=F:"<>":always:0:"1" filter=F:"==":never:0:"1" filter=F:"~":never:0:"1" filter=F:"":always:0:"1" filter=F:"<=>":always:0:"1"`},
		{"filter short", "1\t>=\t1\t0\t10\t0\tF\t=", `exec id=1 op=">=":ge vlen=1 keys=["0"] limit=10 offset=0 filter=F:"=":eq:0:""`},
		{"filter value escaped", "1\t>=\t1\t0\t10\t0\tF\t=\t0\t\x01@", `exec id=1 op=">=":ge vlen=1 keys=["0"] limit=10 offset=0 filter=F:"=":eq:0:"\x00"`},

		// Modify.
		{"update", "1\t=\t1\t2\t1\t0\tU\tTWO\t22", `exec id=1 op="=":eq vlen=1 keys=["2"] limit=1 offset=0 mod="U":update vals=["TWO" "22"]`},
		{"update returning", "1\t=\t1\t1\t1\t0\tU?\t1\tuno\t11", `exec id=1 op="=":eq vlen=1 keys=["1"] limit=1 offset=0 mod="U?":update? vals=["1" "uno" "11"]`},
		{"update no values", "1\t=\t1\t4\t1\t0\tU", `exec id=1 op="=":eq vlen=1 keys=["4"] limit=1 offset=0 mod="U":update vals=[]`},
		{"update null value", "1\t=\t1\t4\t1\t0\tU\t\x00\t", `exec id=1 op="=":eq vlen=1 keys=["4"] limit=1 offset=0 mod="U":update vals=[NULL ""]`},
		{"modop first byte only", "1\t=\t1\t1\t1\t0\tUX\tfirst", `exec id=1 op="=":eq vlen=1 keys=["1"] limit=1 offset=0 mod="UX":update vals=["first"]`},
		{"modop ? second byte", "1\t=\t1\t2\t1\t0\tU?junk\tsecond", `exec id=1 op="=":eq vlen=1 keys=["2"] limit=1 offset=0 mod="U?junk":update? vals=["second"]`},
		{"modop ? third byte", "1\t=\t1\t2\t1\t0\tUX?\tv", `exec id=1 op="=":eq vlen=1 keys=["2"] limit=1 offset=0 mod="UX?":update vals=["v"]`},
		{"delete", "1\t=\t1\t3\t1\t0\tD", `exec id=1 op="=":eq vlen=1 keys=["3"] limit=1 offset=0 mod="D":delete vals=[]`},
		{"delete returning", "1\t>=\t1\t2\t2\t0\tD?", `exec id=1 op=">=":ge vlen=1 keys=["2"] limit=2 offset=0 mod="D?":delete? vals=[]`},
		{"increment", "1\t=\t1\t5\t1\t0\t+?\t0\t3", `exec id=1 op="=":eq vlen=1 keys=["5"] limit=1 offset=0 mod="+?":inc? vals=["0" "3"]`},
		{"decrement", "1\t=\t1\t5\t1\t0\t-\t6", `exec id=1 op="=":eq vlen=1 keys=["5"] limit=1 offset=0 mod="-":dec vals=["6"]`},
		{"unknown option is a modop", "1\t>\t1\t0\t2\t0\tZ", `exec id=1 op=">":gt vlen=1 keys=["0"] limit=2 offset=0 mod="Z":invalid vals=[]`},
		{"empty modop is a plain find", "1\t=\t1\t1\t1\t0\t\tx", `exec id=1 op="=":eq vlen=1 keys=["1"] limit=1 offset=0 mod="":none vals=["x"]`},
		{"modop needs limit and offset 1", "1\t=\t1\t1\tU\tx", `exec id=1 op="=":eq vlen=1 keys=["1"] limit=0 offset=0`},
		{"modop needs limit and offset 2", "1\t=\t1\t1\t1\tU", `exec id=1 op="=":eq vlen=1 keys=["1"] limit=1 offset=0`},
		{"filter then modify", "1\t>=\t1\t0\t10\t0\tF\t>\t0\t0\tU\tpos", `exec id=1 op=">=":ge vlen=1 keys=["0"] limit=10 offset=0 filter=F:">":gt:0:"0" mod="U":update vals=["pos"]`},
		{"filter value then D?", "1\t>=\t1\t0\t10\t0\tF\t<=\t0\t0\tD?", `exec id=1 op=">=":ge vlen=1 keys=["0"] limit=10 offset=0 filter=F:"<=":le:0:"0" mod="D?":delete? vals=[]`},

		// Option order: LIM, IN, filters, modify.
		{"IN after a filter is a modop", "1\t=\t1\t0\t10\t0\tF\t=\t0\t1\t@\t0\t1\t2", `exec id=1 op="=":eq vlen=1 keys=["0"] limit=10 offset=0 filter=F:"=":eq:0:"1" mod="@":invalid vals=["0" "1" "2"]`},
		{"filter after modop is a value", "1\t=\t1\t0\t10\t0\tU\tF\t=\t0\t1", `exec id=1 op="=":eq vlen=1 keys=["0"] limit=10 offset=0 mod="U":update vals=["F" "=" "0" "1"]`},
		{"IN only right after LIM", "1\t=\t1\t1\t@\t0\t1\t2", `exec id=1 op="=":eq vlen=1 keys=["1"] limit=0 offset=0 mod="1":invalid vals=["2"]`},
		{"second IN is a modop", "1\t=\t1\t0\t10\t0\t@\t0\t1\t5\t@\t0\t1\t6", `exec id=1 op="=":eq vlen=1 keys=["0"] limit=10 offset=0 in=@0:1["5"] mod="@":invalid vals=["0" "1" "6"]`},
		{"modop starting with F is a filter", "1\t=\t1\t0\t1\t0\tFoo\tbar", `exec id=1 op="=":eq vlen=1 keys=["0"] limit=1 offset=0 err=filtertype`},

		// Insert.
		{"insert", "1\t+\t2\t99\tx", `exec id=1 op="+":insert vlen=2 keys=["99" "x"] limit=0 offset=0`},
		{"insert null", "1\t+\t2\t\x00\tq", `exec id=1 op="+":insert vlen=2 keys=[NULL "q"] limit=0 offset=0`},
		{"insert short", "1\t+\t3\tabc", `exec id=1 op="+":insert vlen=3 keys=["abc"] limit=0 offset=0`},
		{"insert extra", "1\t+\t1\tx\ty\tz", `exec id=1 op="+":insert vlen=1 keys=["x"] limit=0 offset=0`},
		{"insert zero", "1\t+\t0", `exec id=1 op="+":insert vlen=0 keys=[] limit=0 offset=0`},
		{"insert with options", "1\t+\t1\tx\t1\t0\tZ\tq", `exec id=1 op="+":insert vlen=1 keys=["x"] limit=1 offset=0 mod="Z":invalid vals=["q"]`},
		{"insert utf8", "1\t+\t2\t2\t\xe6\x97\xa5", `exec id=1 op="+":insert vlen=2 keys=["2" "日"] limit=0 offset=0`},
	}
	var reused Request
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := dumpRequest(parseFresh([]byte(tt.line)))
			if got != tt.want {
				t.Errorf("Parse(%q)\n got %s\nwant %s", tt.line, got, tt.want)
			}
			// A reused Request gives the same result as a fresh one.
			reused.Parse([]byte(tt.line))
			if again := dumpRequest(&reused); again != got {
				t.Errorf("reused Request: %s", again)
			}
		})
	}
}

func TestRequestAccessors(t *testing.T) {
	r := parseFresh([]byte("1\t=\t3\ta\x01@\t\x00"))
	if r.VLen != 3 || len(r.Keys) != 2 {
		t.Fatalf("VLen %d keys %d", r.VLen, len(r.Keys))
	}
	if k := r.Key(0); k.Null || string(k.B) != "a\x00" {
		t.Errorf("Key(0) = %s", dumpValue(k))
	}
	if k := r.Key(1); !k.Null {
		t.Errorf("Key(1) = %s", dumpValue(k))
	}
	if k := r.Key(2); k.Null || len(k.B) != 0 {
		t.Errorf("Key(2) = %s, want empty string", dumpValue(k))
	}
	if r.EffectiveLimit() != 1 {
		t.Errorf("EffectiveLimit = %d", r.EffectiveLimit())
	}
	if r.InKeyPart() != -1 {
		t.Errorf("InKeyPart = %d", r.InKeyPart())
	}

	r = parseFresh([]byte("1\t=\t1\t0\t7\t2\t@\t1\t3\tx\tF\t=\t0\tv\tU\tnew"))
	if r.EffectiveLimit() != 7 || r.Offset != 2 {
		t.Errorf("limit %d offset %d", r.EffectiveLimit(), r.Offset)
	}
	if r.InKeyPart() != 1 {
		t.Errorf("InKeyPart = %d", r.InKeyPart())
	}
	// IN values run to the filter: "x", "F", "=" are the three values.
	if got := dumpValues(r.InValues); got != `["x" "F" "="]` {
		t.Errorf("InValues = %s", got)
	}
	if v := r.InValue(5); v.Null || len(v.B) != 0 {
		t.Errorf("InValue(5) = %s", dumpValue(v))
	}
	if v := r.ModValue(0); string(v.B) != "v" { // "0" "v" "U" "new" after the modop "0"
		t.Errorf("ModValue(0) = %s (%s)", dumpValue(v), dumpRequest(r))
	}
	if v := r.ModValue(9); v.Null || len(v.B) != 0 {
		t.Errorf("ModValue(9) = %s", dumpValue(v))
	}

	r = parseFresh([]byte("1\t=\t1\t0\t1\t0\t@\t2147483648\t1\tx"))
	if r.InKeyPart() != -1 {
		t.Errorf("InKeyPart for col 2^31 = %d, want -1", r.InKeyPart())
	}
	r = parseFresh([]byte("1\t=\t1\t0\t1\t0\t@\t2147483647\t1\tx"))
	if r.InKeyPart() != 2147483647 {
		t.Errorf("InKeyPart for col 2^31-1 = %d", r.InKeyPart())
	}

	r = parseFresh([]byte("P\t1\tconf\ttw"))
	if string(r.IndexName()) != "PRIMARY" {
		t.Errorf("IndexName = %q", r.IndexName())
	}
	r = parseFresh([]byte("P\t1\tconf\ttw\tia"))
	if string(r.IndexName()) != "ia" {
		t.Errorf("IndexName = %q", r.IndexName())
	}
}

func TestFilterOpAccept(t *testing.T) {
	want := map[FilterOp][3]bool{ // cv = -1, 0, 1
		FilterEQ:     {false, true, false},
		FilterNE:     {true, false, true},
		FilterLT:     {true, false, false},
		FilterLE:     {true, true, false},
		FilterGT:     {false, false, true},
		FilterGE:     {false, true, true},
		FilterAlways: {true, true, true},
		FilterNever:  {false, false, false},
	}
	for op, w := range want {
		for i, cv := range []int{-1, 0, 1} {
			if got := op.Accept(cv); got != w[i] {
				t.Errorf("%s.Accept(%d) = %v", filterOpNames[op], cv, got)
			}
		}
	}
	f := Filter{Type: 'W'}
	if !f.Stop() {
		t.Error("W does not stop")
	}
	f.Type = 'F'
	if f.Stop() {
		t.Error("F stops")
	}
}

func TestOpIsFind(t *testing.T) {
	for op, want := range map[Op]bool{OpInvalid: false, OpEQ: true, OpGT: true, OpGE: true, OpLT: true, OpLE: true, OpInsert: false, OpSQL: false} {
		if op.IsFind() != want {
			t.Errorf("%s.IsFind() = %v", opNames[op], !want)
		}
	}
}

func TestParseDecodesInPlace(t *testing.T) {
	line := []byte("1\t=\t1\tA\x01I\x01JB\t1\t0")
	var r Request
	r.Parse(line)
	k := r.Key(0)
	if string(k.B) != "A\t\nB" {
		t.Fatalf("key %q", k.B)
	}
	if &k.B[0] != &line[6] {
		t.Fatal("key does not alias the line")
	}
	// Tokens after the decoded one are intact.
	if r.Limit != 1 || r.Offset != 0 {
		t.Fatalf("limit %d offset %d", r.Limit, r.Offset)
	}
}

func TestReset(t *testing.T) {
	var r Request
	r.Parse([]byte("1\t=\t1\t0\t10\t0\t@\t0\t1\tx\tF\t=\t0\t1\tU\tv"))
	r.Reset()
	if dumpRequest(&r) != "invalid" {
		t.Fatalf("after Reset: %s", dumpRequest(&r))
	}
	for _, v := range r.Keys[:cap(r.Keys)] {
		if v.B != nil {
			t.Fatal("Reset kept a reference")
		}
	}
	for _, f := range r.Filters[:cap(r.Filters)] {
		if f.OpToken != nil || f.Value.B != nil {
			t.Fatal("Reset kept a filter reference")
		}
	}
	r.Parse([]byte("P\t1\tdb\tt\t\ta,b"))
	if got := dumpRequest(&r); got != `open id=1 db="db" table="t" index="" cols=["a" "b"] fcols=[]` {
		t.Fatalf("after Reset and Parse: %s", got)
	}
}

func TestParseNeverWritesOutsideLine(t *testing.T) {
	buf := []byte("1\t=\t1\t\x01@\x01@\t1\t0\tU\t\x01A|guard")
	line := buf[:bytes.IndexByte(buf, '|')]
	var r Request
	r.Parse(line)
	if string(buf[len(line):]) != "|guard" {
		t.Fatalf("guard bytes changed: %q", buf[len(line):])
	}
}
