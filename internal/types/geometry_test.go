package types

import (
	"encoding/binary"
	"encoding/hex"
	"math"
	"testing"
)

// point is the internal format of POINT(x y) with an SRID.
func point(srid uint32, x, y float64) []byte {
	b := make([]byte, 25)
	binary.LittleEndian.PutUint32(b, srid)
	b[4] = 1
	binary.LittleEndian.PutUint32(b[5:], 1)
	binary.LittleEndian.PutUint64(b[9:], math.Float64bits(x))
	binary.LittleEndian.PutUint64(b[17:], math.Float64bits(y))
	return b
}

func TestGeometryTypes(t *testing.T) {
	for _, name := range []string{"geometry", "point", "linestring", "polygon", "multipoint", "multilinestring", "multipolygon", "geometrycollection"} {
		ty, err := ParseType(name)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if ty.Kind != Geometry || ty.String() != name || !ty.IsBlob() || ty.Class() != ClassBytes {
			t.Errorf("%s: parsed as %+v, printed %q", name, ty, ty.String())
		}
	}
}

func TestValidGeometry(t *testing.T) {
	// LINESTRING(0 0,30 30) as MariaDB stores it.
	line, _ := hex.DecodeString("00000000010200000002000000000000000000000000000000000000000000000000003E400000000000003E40")
	pt := Type{Kind: Geometry, Scale: GeomPoint}
	geom := Type{Kind: Geometry}
	srid := Type{Kind: Geometry, Scale: GeomPoint, Length: 4326 + 1}
	cases := []struct {
		t    *Type
		b    []byte
		want bool
	}{
		{&pt, point(0, 1, 2), true},
		{&geom, point(0, 1, 2), true},
		{&geom, line, true},
		{&pt, line, false},
		{&geom, line[:len(line)-1], false},
		{&geom, append(point(0, 1, 2), 0, 0), true}, // trailing bytes, as MariaDB accepts
		{&geom, []byte("junk"), false},
		{&geom, nil, false},
		{&srid, point(4326, 1, 2), true},
		{&srid, point(0, 1, 2), false},
		{&geom, point(0, math.NaN(), 0), false},
	}
	for i, c := range cases {
		if got := ValidGeometry(c.t, c.b); got != c.want {
			t.Errorf("case %d: ValidGeometry(%x) = %v", i, c.b, got)
		}
	}
	// HandlerSocket's conversion keeps a valid value and stores '' for
	// anything else, as the plugin does.
	if v := Convert(&pt, point(0, 3, 4), nil); string(v.B) != string(point(0, 3, 4)) {
		t.Errorf("valid point converted to %x", v.B)
	}
	if v := Convert(&pt, []byte("junk"), nil); len(v.B) != 0 || v.Null {
		t.Errorf("junk converted to %+v", v)
	}
}
