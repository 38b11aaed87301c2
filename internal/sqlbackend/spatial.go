package sqlbackend

import (
	"context"
	"slices"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/expression/function/spatial"
	gtypes "github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/mysql"

	"github.com/handlerdb/handlerdb/internal/engine"
	"github.com/handlerdb/handlerdb/internal/errtable"
	"github.com/handlerdb/handlerdb/internal/types"
)

// Geometry columns cross between go-mysql-server and the engine here. The
// engine keeps a geometry as MySQL's internal format (SRID + WKB), which
// is what go-mysql-server's geometry values serialize to and what the
// wire carries; go-mysql-server's spatial functions work on its values
// (types.Point, types.Polygon, ...). Pure functions, safe for concurrent
// use.

// sqlGeometryType returns go-mysql-server's type of a geometry column.
func sqlGeometryType(t *types.Type) sql.Type {
	srid, defined := t.SRID()
	switch t.Scale {
	case types.GeomPoint:
		return gtypes.PointType{SRID: srid, DefinedSRID: defined}
	case types.GeomLineString:
		return gtypes.LineStringType{SRID: srid, DefinedSRID: defined}
	case types.GeomPolygon:
		return gtypes.PolygonType{SRID: srid, DefinedSRID: defined}
	case types.GeomMultiPoint:
		return gtypes.MultiPointType{SRID: srid, DefinedSRID: defined}
	case types.GeomMultiLine:
		return gtypes.MultiLineStringType{SRID: srid, DefinedSRID: defined}
	case types.GeomMultiPoly:
		return gtypes.MultiPolygonType{SRID: srid, DefinedSRID: defined}
	case types.GeomCollection:
		return gtypes.GeomCollType{SRID: srid, DefinedSRID: defined}
	}
	return gtypes.GeometryType{SRID: srid, DefinedSRID: defined}
}

// engineGeometryType maps one of go-mysql-server's spatial column types to
// the engine's geometry type.
func engineGeometryType(st sql.Type) (types.Type, bool) {
	t := types.Type{Kind: types.Geometry}
	switch st.(type) {
	case gtypes.GeometryType:
		t.Scale = types.GeomAny
	case gtypes.PointType:
		t.Scale = types.GeomPoint
	case gtypes.LineStringType:
		t.Scale = types.GeomLineString
	case gtypes.PolygonType:
		t.Scale = types.GeomPolygon
	case gtypes.MultiPointType:
		t.Scale = types.GeomMultiPoint
	case gtypes.MultiLineStringType:
		t.Scale = types.GeomMultiLine
	case gtypes.MultiPolygonType:
		t.Scale = types.GeomMultiPoly
	case gtypes.GeomCollType:
		t.Scale = types.GeomCollection
	default:
		return t, false
	}
	if sc, ok := st.(sql.SpatialColumnType); ok {
		if srid, defined := sc.GetSpatialTypeSRID(); defined && srid < ^uint32(0) {
			t.Length = srid + 1
		}
	}
	return t, true
}

// geometryToSQL turns stored bytes into go-mysql-server's geometry value.
// Bytes that hold no geometry (HandlerSocket stores what the plugin
// stores: the empty string for anything invalid) stay bytes, which the
// spatial functions refuse and the wire sends as they are.
func geometryToSQL(b []byte) interface{} {
	g, _, err := gtypes.GeometryType{}.Convert(context.Background(), b)
	if err != nil {
		return append([]byte{}, b...)
	}
	return g
}

// geometryFromSQL stores a geometry value: go-mysql-server's geometry
// values serialize to the internal format; bytes are kept when they hold
// a geometry of the column's kind.
func geometryFromSQL(t *types.Type, v interface{}) (types.Value, error) {
	switch x := v.(type) {
	case gtypes.GeometryValue:
		return types.Value{B: x.Serialize()}, nil
	case []byte:
		if types.ValidGeometry(t, x) {
			return types.Value{B: append([]byte{}, x...)}, nil
		}
	case string:
		if types.ValidGeometry(t, []byte(x)) {
			return types.Value{B: []byte(x)}, nil
		}
	}
	return types.Value{}, errtable.SQLError(mysql.ErrCantCreateGeometryObject)
}

// storeGeometry checks a value stored into a geometry column as MariaDB
// does, in every sql_mode: a geometry of another kind than the column's
// is 1366 (Incorrect POINT value: 'LINESTRING(...)'), anything that is no
// geometry 1416.
func storeGeometry(ctx *sql.Context, t *types.Type, v interface{}) (interface{}, storeCond) {
	g, ok := v.(gtypes.GeometryValue)
	if !ok {
		b, isBytes := BytesOf(v)
		if !isBytes || !types.ValidGeometry(&types.Type{Kind: types.Geometry}, b) {
			return nil, storeCond{code: mysql.ErrCantCreateGeometryObject, always: true}
		}
		if g, ok = geometryToSQL(b).(gtypes.GeometryValue); !ok {
			return nil, storeCond{code: mysql.ErrCantCreateGeometryObject, always: true}
		}
	}
	if t.Scale == types.GeomAny || geometryKind(g) == t.Scale {
		return g, storeCond{}
	}
	text := ""
	shown := g
	if AnswersAsMariaDB(ctx) && g.GetSRID() == gtypes.GeoSpatialSRID {
		shown = g.SetSRID(0) // MariaDB prints the coordinates as stored (axisOrderRule)
	}
	if s, err := spatial.NewAsWKT(expression.NewLiteral(shown, gtypes.GeometryType{})).Eval(ctx, nil); err == nil {
		text, _ = s.(string)
	}
	return nil, storeCond{code: mysql.ERTruncatedWrongValueForField, word: strings.ToUpper(types.GeometryName(t)), text: text, always: true}
}

// mysql.ErrCantCreateGeometryObject is ER_CANT_CREATE_GEOMETRY_OBJECT.

// geometryKind is the engine's geometry kind of a value.
func geometryKind(g gtypes.GeometryValue) uint8 {
	switch g.(type) {
	case gtypes.Point:
		return types.GeomPoint
	case gtypes.LineString:
		return types.GeomLineString
	case gtypes.Polygon:
		return types.GeomPolygon
	case gtypes.MultiPoint:
		return types.GeomMultiPoint
	case gtypes.MultiLineString:
		return types.GeomMultiLine
	case gtypes.MultiPolygon:
		return types.GeomMultiPoly
	case gtypes.GeomColl:
		return types.GeomCollection
	}
	return types.GeomAny
}

// checkGeometryAlter checks, inside the ALTER TABLE job, that every value
// of column i of old fits col, the geometry column it becomes (the
// engine's conversion stores the empty string for one that does not): as MariaDB, a
// geometry of another kind is 1366 naming the row, anything else 1416; a
// geometry of another SRID than the one col declares is go-mysql-server's
// SRID error.
func checkGeometryAlter(ctx *sql.Context, tx *engine.Job, old *engine.Table, i int, col *types.Column) error {
	rows, err := allRows(tx, old)
	if err != nil {
		return err
	}
	ot := &old.Columns[i].Type
	var buf []byte
	for n, r := range rows {
		v := r[i]
		if v.Null {
			if !col.Nullable {
				return errtable.SQLError(mysql.ERBadNullError, col.Name)
			}
			continue
		}
		buf = types.AppendFormat(buf[:0], ot, v)
		if types.ValidGeometry(&col.Type, buf) {
			continue
		}
		g, ok := geometryToSQL(buf).(gtypes.GeometryValue)
		if !ok {
			return errtable.SQLError(mysql.ErrCantCreateGeometryObject)
		}
		if srid, defined := col.Type.SRID(); defined && g.GetSRID() != srid {
			return sql.ErrNotMatchingSRIDWithColName.New(col.Name, sql.ErrNotMatchingSRID.New(g.GetSRID(), srid))
		}
		_, cond := storeGeometry(ctx, &col.Type, g)
		if cond.code == 0 {
			continue
		}
		return errtable.SQLError(cond.code, cond.word, cond.text, old.DB, old.Name, col.Name, n+1)
	}
	return nil
}

// sameColumnType reports whether two column types are the same.
func sameColumnType(a, b *types.Type) bool {
	return a.Kind == b.Kind && a.Unsigned == b.Unsigned && a.Length == b.Length && a.Scale == b.Scale &&
		a.Collation == b.Collation && slices.Equal(a.Elems, b.Elems)
}
