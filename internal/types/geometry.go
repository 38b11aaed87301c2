package types

import (
	"encoding/binary"
	"math"
)

// Geometry columns (GEOMETRY, POINT, LINESTRING, POLYGON, MULTIPOINT,
// MULTILINESTRING, MULTIPOLYGON, GEOMETRYCOLLECTION) hold MySQL's internal
// geometry format in Value.B: a 4-byte little-endian SRID followed by the
// value's WKB. Type.Scale is the declared kind (GeomAny ... GeomCollection,
// the WKB type numbers), Type.Length is 0 or, when the column declares an
// SRID, that SRID plus one. Values compare and key as bytes.

// The geometry kinds of a Geometry column, in Type.Scale.
const (
	GeomAny        uint8 = iota // GEOMETRY: any kind
	GeomPoint                   // POINT
	GeomLineString              // LINESTRING
	GeomPolygon                 // POLYGON
	GeomMultiPoint              // MULTIPOINT
	GeomMultiLine               // MULTILINESTRING
	GeomMultiPoly               // MULTIPOLYGON
	GeomCollection              // GEOMETRYCOLLECTION
)

// geomNames are the SQL names of the geometry kinds.
var geomNames = [...]string{
	GeomAny: "geometry", GeomPoint: "point", GeomLineString: "linestring", GeomPolygon: "polygon",
	GeomMultiPoint: "multipoint", GeomMultiLine: "multilinestring", GeomMultiPoly: "multipolygon",
	GeomCollection: "geometrycollection",
}

// GeometryName returns the SQL name of a geometry column's kind.
func GeometryName(t *Type) string {
	if int(t.Scale) < len(geomNames) {
		return geomNames[t.Scale]
	}
	return "geometry"
}

// geometryKind returns the geometry kind named word, if it is one.
func geometryKind(word string) (uint8, bool) {
	for i, n := range geomNames {
		if n == word {
			return uint8(i), true
		}
	}
	return 0, false
}

// SRID returns the SRID a geometry column declares, if any.
func (t *Type) SRID() (uint32, bool) {
	if t.Kind != Geometry || t.Length == 0 {
		return 0, false
	}
	return t.Length - 1, true
}

// ValidGeometry reports whether b holds a whole geometry of the column's
// kind in the internal format (bytes after it are allowed, as MariaDB
// allows them).
func ValidGeometry(t *Type, b []byte) bool {
	if len(b) < 4 {
		return false
	}
	if srid, ok := t.SRID(); ok && binary.LittleEndian.Uint32(b) != srid {
		return false
	}
	kind, _, ok := wkbShape(b[4:], 0)
	if !ok {
		return false
	}
	switch t.Scale {
	case GeomAny:
		return true
	case GeomCollection:
		return kind == uint32(GeomCollection)
	}
	return kind == uint32(t.Scale)
}

// wkbShape checks one WKB geometry at the start of b and returns its kind
// and length.
func wkbShape(b []byte, depth int) (kind uint32, n int, ok bool) {
	if len(b) < 5 || b[0] > 1 || depth > 32 {
		return 0, 0, false
	}
	var ord binary.ByteOrder = binary.LittleEndian
	if b[0] == 0 {
		ord = binary.BigEndian
	}
	kind = ord.Uint32(b[1:])
	n = 5
	count := func() (int, bool) {
		if len(b) < n+4 {
			return 0, false
		}
		c := ord.Uint32(b[n:])
		n += 4
		return int(c), uint64(c) <= uint64(len(b))
	}
	points := func(c int) bool {
		if c < 0 || len(b)-n < 16*c {
			return false
		}
		for i := 0; i < c; i++ {
			x := math.Float64frombits(ord.Uint64(b[n:]))
			y := math.Float64frombits(ord.Uint64(b[n+8:]))
			if math.IsNaN(x) || math.IsNaN(y) {
				return false
			}
			n += 16
		}
		return true
	}
	switch kind {
	case uint32(GeomPoint):
		return kind, n + 16, points(1)
	case uint32(GeomLineString):
		c, ok := count()
		return kind, n, ok && points(c)
	case uint32(GeomPolygon):
		rings, ok := count()
		if !ok {
			return 0, 0, false
		}
		for i := 0; i < rings; i++ {
			c, ok := count()
			if !ok || !points(c) {
				return 0, 0, false
			}
		}
		return kind, n, true
	case uint32(GeomMultiPoint), uint32(GeomMultiLine), uint32(GeomMultiPoly), uint32(GeomCollection):
		parts, ok := count()
		if !ok {
			return 0, 0, false
		}
		for i := 0; i < parts; i++ {
			k, m, ok := wkbShape(b[n:], depth+1)
			if !ok || kind != uint32(GeomCollection) && k != kind-3 {
				return 0, 0, false
			}
			n += m
		}
		return kind, n, true
	}
	return 0, 0, false
}

// convertGeometry stores client bytes into a geometry column as the
// HandlerSocket plugin does: a valid value as given, anything else as the
// empty string.
func convertGeometry(t *Type, in, buf []byte) Value {
	if !ValidGeometry(t, in) {
		return Value{B: buf[:0]}
	}
	return Value{B: append(buf[:0], in...)}
}
