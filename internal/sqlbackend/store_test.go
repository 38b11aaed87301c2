package sqlbackend

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/handlerdb/handlerdb/internal/types"
)

// Values stored through the plans the SQL corpus does not reach: an
// INSERT under a BEFORE INSERT trigger (the trigger sees the value as
// stored, as in MariaDB) and a multi-table UPDATE.
func TestStoreValuesPlans(t *testing.T) {
	b := NewTestBackend(t)
	ctx := b.Session()
	for _, q := range []string{"CREATE DATABASE d",
		"CREATE TABLE d.t (id INT PRIMARY KEY, ti TINYINT NULL, n INT NOT NULL)",
		"CREATE TABLE d.u (id INT PRIMARY KEY, ti TINYINT NULL)",
		"CREATE TRIGGER d.tr BEFORE INSERT ON d.t FOR EACH ROW SET NEW.n = NEW.ti",
		"INSERT INTO d.u VALUES (1, 1)", "INSERT INTO d.t VALUES (0, 0, 0)"} {
		if _, err := b.Query(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	ctx.SetCurrentDatabase("d")
	for _, q := range []string{"INSERT INTO t VALUES (1, 1000, 0)", "UPDATE t, u SET u.ti = 1000 WHERE u.id = 1 AND t.id = 0"} {
		if _, err := b.Query(ctx, q); err == nil || !strings.Contains(err.Error(), "Out of range value for column 'ti' at row 1") {
			t.Errorf("strict %s: %v, want 1264 Out of range value for column 'ti' at row 1", q, err)
		}
	}
	for _, q := range []string{"SET sql_mode = ''", "INSERT INTO t VALUES (1, 1000, 0)", "UPDATE t, u SET u.ti = -1000 WHERE u.id = 1 AND t.id = 0"} {
		if _, err := b.Query(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	for q, want := range map[string]string{"SELECT ti, n FROM t WHERE id = 1": "127|127", "SELECT ti FROM u": "-128"} {
		rows, err := b.Query(ctx, q)
		if err != nil || len(rows) != 1 || rows[0] != want {
			t.Errorf("%s: %q, %v; want %s", q, rows, err, want)
		}
	}
}

// TestStoreIntFastAgreesWithExact checks storeInt's integer path against
// its exact decimal path at and around every integer type's limits.
func TestStoreIntFastAgreesWithExact(t *testing.T) {
	vals := []int64{0, 1, -1, 126, 127, 128, -128, -129, 255, 256, 32767, 32768, -32768, -32769, 65535, 65536,
		8388607, 8388608, -8388608, -8388609, 16777215, 16777216, 2147483647, 2147483648, -2147483648, -2147483649,
		4294967295, 4294967296, math.MaxInt64, math.MinInt64}
	for _, k := range []types.Kind{types.TinyInt, types.SmallInt, types.MediumInt, types.Int, types.BigInt} {
		for _, unsigned := range []bool{false, true} {
			typ := &types.Type{Kind: k, Unsigned: unsigned}
			for _, v := range vals {
				fast, fcond := storeInt(typ, v)
				exact, econd := storeInt(typ, decimal.NewFromInt(v))
				if fcond.code != econd.code || fmt.Sprint(fast) != fmt.Sprint(exact) {
					t.Errorf("kind %v unsigned %v: %d: integer path %v (cond %d), decimal path %v (cond %d)",
						k, unsigned, v, fast, fcond.code, exact, econd.code)
				}
			}
		}
	}
}

// TestDecimalLimits checks the cached DECIMAL limits, on the first and on
// a later call, against their definition.
func TestDecimalLimits(t *testing.T) {
	for _, c := range []struct {
		m, d     uint32
		unsigned bool
		lo, hi   string
	}{{5, 2, false, "-999.99", "999.99"}, {5, 2, true, "0", "999.99"}, {3, 0, false, "-999", "999"}, {10, 10, false, "-0.9999999999", "0.9999999999"}} {
		typ := &types.Type{Kind: types.Decimal, Length: c.m, Scale: uint8(c.d), Unsigned: c.unsigned}
		for round := 0; round < 2; round++ {
			lo, hi := decimalLimits(typ)
			if lo.String() != c.lo || hi.String() != c.hi {
				t.Errorf("DECIMAL(%d,%d) unsigned %v, call %d: %s..%s, want %s..%s", c.m, c.d, c.unsigned, round, lo, hi, c.lo, c.hi)
			}
		}
	}
}
