package types

import (
	"errors"
	"slices"
	"testing"

	"github.com/handlerdb/handlerdb/internal/collation"
)

func TestParseType(t *testing.T) {
	cases := []struct {
		def       string
		kind      Kind
		unsigned  bool
		length    uint32
		scale     uint8
		collation string // "" for none
		str       string
	}{
		{"TINYINT", TinyInt, false, 0, 0, "", "tinyint(4)"},
		{"tinyint(1) unsigned", TinyInt, true, 0, 0, "", "tinyint(3) unsigned"},
		{"SMALLINT UNSIGNED", SmallInt, true, 0, 0, "", "smallint(5) unsigned"},
		{"MEDIUMINT", MediumInt, false, 0, 0, "", "mediumint(9)"},
		{"INTEGER", Int, false, 0, 0, "", "int(11)"},
		{"Int(10) Unsigned ZEROFILL", Int, true, 0, 0, "", "int(10) unsigned"},
		{"BIGINT UNSIGNED", BigInt, true, 0, 0, "", "bigint(20) unsigned"},
		{"BIGINT SIGNED", BigInt, false, 0, 0, "", "bigint(20)"},
		{"DECIMAL", Decimal, false, 10, 0, "", "decimal(10,0)"},
		{"DECIMAL(7)", Decimal, false, 7, 0, "", "decimal(7,0)"},
		{"numeric(65,30) unsigned", Decimal, true, 65, 30, "", "decimal(65,30) unsigned"},
		{"FLOAT", Float, false, 0, 0, "", "float"},
		{"FLOAT(7,2)", Float, false, 7, 2, "", "float(7,2)"},
		{"FLOAT(30)", Double, false, 0, 0, "", "double"},
		{"DOUBLE PRECISION", Double, false, 0, 0, "", "double"},
		{"REAL(10,4)", Double, false, 10, 4, "", "double(10,4)"},
		{"BIT", Bit, false, 1, 0, "", "bit(1)"},
		{"bit(64)", Bit, false, 64, 0, "", "bit(64)"},
		{"DATE", Date, false, 0, 0, "", "date"},
		{"DATETIME(3)", DateTime, false, 0, 3, "", "datetime(3)"},
		{"TIMESTAMP", Timestamp, false, 0, 0, "", "timestamp"},
		{"TIME(6)", Time, false, 0, 6, "", "time(6)"},
		{"YEAR(4)", Year, false, 0, 0, "", "year(4)"},
		{"CHAR", Char, false, 1, 0, "utf8mb4_general_ci", "char(1)"},
		{"CHAR(10)", Char, false, 10, 0, "utf8mb4_general_ci", "char(10)"},
		{"VARCHAR(32) CHARACTER SET latin1 COLLATE latin1_bin", VarChar, false, 32, 0, "latin1_bin",
			"varchar(32) CHARACTER SET latin1 COLLATE latin1_bin"},
		{"varchar(5) charset latin1", VarChar, false, 5, 0, "latin1_swedish_ci",
			"varchar(5) CHARACTER SET latin1 COLLATE latin1_swedish_ci"},
		{"VARCHAR(5) COLLATE utf8mb4_bin", VarChar, false, 5, 0, "utf8mb4_bin",
			"varchar(5) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin"},
		{"VARCHAR(5) BINARY", VarChar, false, 5, 0, "utf8mb4_bin",
			"varchar(5) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin"},
		{"CHAR(4) CHARACTER SET binary", Binary, false, 4, 0, "", "binary(4)"},
		{"VARCHAR(4) CHARACTER SET binary", VarBinary, false, 4, 0, "", "varbinary(4)"},
		{"TINYTEXT", Text, false, 255, 0, "utf8mb4_general_ci", "tinytext"},
		{"TEXT", Text, false, 65535, 0, "utf8mb4_general_ci", "text"},
		{"TEXT(100)", Text, false, 65535, 0, "utf8mb4_general_ci", "text"},
		{"TEXT(60)", Text, false, 255, 0, "utf8mb4_general_ci", "tinytext"},
		{"MEDIUMTEXT", Text, false, 16777215, 0, "utf8mb4_general_ci", "mediumtext"},
		{"LONGTEXT", Text, false, 4294967295, 0, "utf8mb4_general_ci", "longtext"},
		{"BINARY(5)", Binary, false, 5, 0, "", "binary(5)"},
		{"VARBINARY(20)", VarBinary, false, 20, 0, "", "varbinary(20)"},
		{"TINYBLOB", Blob, false, 255, 0, "", "tinyblob"},
		{"BLOB", Blob, false, 65535, 0, "", "blob"},
		{"blob(70000)", Blob, false, 16777215, 0, "", "mediumblob"},
		{"LONGBLOB", Blob, false, 4294967295, 0, "", "longblob"},
		{"ENUM('a','b','c')", Enum, false, 0, 0, "utf8mb4_general_ci", "enum('a','b','c')"},
		{"set ( 'x' , 'y''s' ) collate utf8mb4_bin", Set, false, 0, 0, "utf8mb4_bin",
			"set('x','y''s') CHARACTER SET utf8mb4 COLLATE utf8mb4_bin"},
	}
	for _, c := range cases {
		t.Run(c.def, func(t *testing.T) {
			typ, err := ParseType(c.def)
			if err != nil {
				t.Fatal(err)
			}
			if typ.Kind != c.kind || typ.Unsigned != c.unsigned || typ.Length != c.length || typ.Scale != c.scale {
				t.Errorf("got kind %d unsigned %v length %d scale %d", typ.Kind, typ.Unsigned, typ.Length, typ.Scale)
			}
			name := ""
			if typ.Collation != nil {
				name = typ.Collation.Name
			}
			if name != c.collation {
				t.Errorf("collation %q, want %q", name, c.collation)
			}
			if s := typ.String(); s != c.str {
				t.Errorf("String() = %q, want %q", s, c.str)
			}
			again, err := ParseType(typ.String())
			if err != nil {
				t.Fatalf("String() does not parse back: %v", err)
			}
			if again.Kind != typ.Kind || again.Length != typ.Length || again.Scale != typ.Scale ||
				again.Unsigned != typ.Unsigned || again.Collation != typ.Collation || !slices.Equal(again.Elems, typ.Elems) {
				t.Errorf("String() parses back to %+v, want %+v", again, typ)
			}
		})
	}
}

func TestParseTypeElems(t *testing.T) {
	typ := mustType(t, `ENUM('it''s', "dq", 'back\\slash', 'a\'b')`)
	want := []string{"it's", "dq", `back\slash`, "a'b"}
	if !slices.Equal(typ.Elems, want) {
		t.Fatalf("Elems = %q, want %q", typ.Elems, want)
	}
}

func TestParseTypeErrors(t *testing.T) {
	for _, def := range []string{
		"", "FOO", "INT(", "INT(3,4)", "DECIMAL(66)", "DECIMAL(5,6)", "DECIMAL(40,31)", "BIT(0)", "BIT(65)",
		"DATETIME(7)", "VARCHAR", "CHAR(256)", "ENUM()", "ENUM(a)", "ENUM('a'", "INT NOT NULL",
		"VARCHAR(5) COLLATE nosuch", "VARCHAR(5) CHARACTER SET nosuch", "VARCHAR(5) CHARACTER SET latin1 COLLATE utf8mb4_bin",
		"DATE UNSIGNED", "INT COLLATE utf8mb4_bin", "FLOAT(54)", "DOUBLE(5)", "VARCHAR(5) CHARACTER", "YEAR(3)",
	} {
		if _, err := ParseType(def); err == nil {
			t.Errorf("ParseType(%q) succeeded", def)
		} else if !errors.Is(err, ErrBadType) {
			t.Errorf("ParseType(%q) error %v does not wrap ErrBadType", def, err)
		}
	}
}

func TestStringCollations(t *testing.T) {
	for _, c := range collation.All() {
		if c.Charset == "binary" {
			continue
		}
		typ := Type{Kind: VarChar, Length: 3, Collation: c}
		back, err := ParseType(typ.String())
		if err != nil {
			t.Errorf("%s: %v", typ.String(), err)
			continue
		}
		if back.Collation != c {
			t.Errorf("%s parses back with collation %v", typ.String(), back.Collation)
		}
	}
}
