package mariadb

import (
	"bytes"
	"fmt"
	"math"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/expression/function/spatial"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	gtypes "github.com/dolthub/go-mysql-server/sql/types"

	"github.com/handlerdb/handlerdb/internal/sqlbackend"
)

// Spatial functions go-mysql-server lacks or only partly has: ST_Contains,
// ST_Within of any geometry (go-mysql-server's answers only for a point),
// ST_Equals (which it registers as st_equal, for points only), and the bounding-rectangle
// relations MBRContains, MBRWithin, MBRIntersects, MBRDisjoint and
// MBREquals; and ST_Centroid. With no R-tree, a query using them scans (see fulltext.go).
//
// ST_Within(g1, g2) is MariaDB's: g1 lies in g2 or on its boundary. It is
// decided on g1's vertices and edges: every vertex and edge midpoint lies
// in g2 or on its boundary (go-mysql-server's ST_Intersects of a point)
// and no edge of g1 properly crosses an edge of g2. That is exact for
// the usual shapes; a g1 whose edge leaves a concave g2 and comes back
// between two probes without crossing is not noticed. The functions are
// pure; their values are immutable and safe for concurrent use.

// spatialWithinRule replaces go-mysql-server's ST_Within by ours.
func spatialWithinRule(ctx *sql.Context, a *analyzer.Analyzer, n sql.Node, scope *plan.Scope, sel analyzer.RuleSelector, qf *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	return transform.NodeExprsWithOpaque(n, func(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
		w, ok := e.(*spatial.Within)
		if !ok {
			return e, transform.SameTree, nil
		}
		return &spatialRel{BinaryExpressionStub: w.BinaryExpressionStub, name: "st_within", f: stWithin}, transform.NewTree, nil
	})
}

// axisOrderRule: go-mysql-server reads and prints the coordinates of SRID
// 4326 (a geographic system) latitude first, as MySQL 8 does, so that
// ST_GeomFromText('POINT(5 6)', 4326) stores x = 6. MariaDB keeps every
// SRID's coordinates in the order written. Answering as MariaDB
// (Provider.MariaDB), the rule gives each WKT reader of two arguments the
// option that keeps the order, and has ST_AsText and ST_AsBinary print a
// 4326 value as one of SRID 0 (whose order they keep; their output has no
// SRID).
func axisOrderRule(ctx *sql.Context, a *analyzer.Analyzer, n sql.Node, scope *plan.Scope, sel analyzer.RuleSelector, qf *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	if !sqlbackend.AnswersAsMariaDB(ctx) {
		return n, transform.SameTree, nil
	}
	return transform.NodeExprsWithOpaque(n, func(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
		switch e.(type) {
		case *spatial.GeomFromText, *spatial.PointFromText, *spatial.LineFromText, *spatial.PolyFromText,
			*spatial.MPointFromText, *spatial.MLineFromText, *spatial.MPolyFromText, *spatial.GeomCollFromText:
			ch := e.Children()
			if len(ch) != 2 {
				return e, transform.SameTree, nil
			}
			// go-mysql-server's reader swaps unless told lat-long.
			out, err := e.WithChildren(ch[0], ch[1], expression.NewLiteral("axis-order=lat-long", gtypes.LongText))
			return out, transform.NewTree, err
		case *spatial.AsWKT, *spatial.AsWKB:
			ch := e.Children()
			if len(ch) != 1 {
				return e, transform.SameTree, nil
			}
			if _, done := ch[0].(*plainAxes); done {
				return e, transform.SameTree, nil
			}
			out, err := e.WithChildren(&plainAxes{expression.UnaryExpression{Child: ch[0]}})
			return out, transform.NewTree, err
		}
		return e, transform.SameTree, nil
	})
}

// plainAxes is its child's value, a 4326 geometry given SRID 0 (so that
// go-mysql-server prints its coordinates in the stored order).
type plainAxes struct {
	expression.UnaryExpression
}

var _ sql.Expression = (*plainAxes)(nil)

func (p *plainAxes) String() string   { return p.Child.String() }
func (p *plainAxes) Type() sql.Type   { return p.Child.Type() }
func (p *plainAxes) IsNullable() bool { return p.Child.IsNullable() }

// WithChildren implements sql.Expression.
func (p *plainAxes) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	if len(children) != 1 {
		return nil, sql.ErrInvalidChildrenNumber.New(p, len(children), 1)
	}
	return &plainAxes{expression.UnaryExpression{Child: children[0]}}, nil
}

// Eval evaluates the child.
func (p *plainAxes) Eval(ctx *sql.Context, row sql.Row) (interface{}, error) {
	v, err := p.Child.Eval(ctx, row)
	if g, ok := v.(gtypes.GeometryValue); ok && err == nil && g.GetSRID() == gtypes.GeoSpatialSRID {
		return g.SetSRID(0), nil
	}
	return v, err
}

// withSpatial registers the relations in a's function catalog.
func withSpatial(a *analyzer.Analyzer) *analyzer.Analyzer {
	ctx := sql.NewEmptyContext()
	rel := func(name string, f func(ctx *sql.Context, a, b gtypes.GeometryValue) (bool, error)) {
		a.Catalog.RegisterFunction(ctx, sql.Function2{Name: name, Fn: func(l, r sql.Expression) sql.Expression {
			return &spatialRel{BinaryExpressionStub: expression.BinaryExpressionStub{LeftChild: l, RightChild: r}, name: name, f: f}
		}})
	}
	rel("st_contains", func(ctx *sql.Context, a, b gtypes.GeometryValue) (bool, error) { return stWithin(ctx, b, a) })
	rel("mbrcontains", func(_ *sql.Context, a, b gtypes.GeometryValue) (bool, error) { return boxContains(a, b), nil })
	rel("mbrwithin", func(_ *sql.Context, a, b gtypes.GeometryValue) (bool, error) { return boxContains(b, a), nil })
	rel("mbrintersects", func(_ *sql.Context, a, b gtypes.GeometryValue) (bool, error) { return boxIntersects(a, b), nil })
	rel("mbrdisjoint", func(_ *sql.Context, a, b gtypes.GeometryValue) (bool, error) { return !boxIntersects(a, b), nil })
	mbrEquals := func(_ *sql.Context, a, b gtypes.GeometryValue) (bool, error) {
		return boxContains(a, b) && boxContains(b, a), nil
	}
	rel("mbrequals", mbrEquals)
	rel("mbrequal", mbrEquals)
	rel("st_equals", stEquals)
	a.Catalog.RegisterFunction(ctx, sql.Function1{Name: "st_centroid", Fn: newCentroid}, sql.Function1{Name: "centroid", Fn: newCentroid})
	return a
}

// spatialRel is a relation between two geometries: 1, 0, or NULL when
// either is NULL.
type spatialRel struct {
	expression.BinaryExpressionStub
	name string
	f    func(ctx *sql.Context, a, b gtypes.GeometryValue) (bool, error)
}

var _ sql.FunctionExpression = (*spatialRel)(nil)

// FunctionName implements sql.FunctionExpression.
func (s *spatialRel) FunctionName() string { return s.name }

// Description implements sql.FunctionExpression.
func (s *spatialRel) Description() string { return "spatial relation " + s.name }

func (s *spatialRel) String() string {
	return fmt.Sprintf("%s(%s,%s)", s.name, s.LeftChild, s.RightChild)
}

// Type is a boolean's.
func (s *spatialRel) Type() sql.Type { return gtypes.Boolean }

// WithChildren implements sql.Expression.
func (s *spatialRel) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	if len(children) != 2 {
		return nil, sql.ErrInvalidChildrenNumber.New(s, len(children), 2)
	}
	n := *s
	n.LeftChild, n.RightChild = children[0], children[1]
	return &n, nil
}

// Eval evaluates the relation.
func (s *spatialRel) Eval(ctx *sql.Context, row sql.Row) (interface{}, error) {
	a, err := s.LeftChild.Eval(ctx, row)
	if err != nil || a == nil {
		return nil, err
	}
	b, err := s.RightChild.Eval(ctx, row)
	if err != nil || b == nil {
		return nil, err
	}
	ga, ok1 := a.(gtypes.GeometryValue)
	gb, ok2 := b.(gtypes.GeometryValue)
	if !ok1 || !ok2 {
		return nil, sql.ErrInvalidGISData.New(s.name)
	}
	if ga.GetSRID() != gb.GetSRID() {
		return nil, sql.ErrDiffSRIDs.New(s.name, ga.GetSRID(), gb.GetSRID())
	}
	ok, err := s.f(ctx, ga, gb)
	if err != nil {
		return nil, err
	}
	return ok, nil
}

// box is a bounding rectangle.
func box(g gtypes.GeometryValue) (minX, minY, maxX, maxY float64) { return g.BBox() }

func boxContains(a, b gtypes.GeometryValue) bool {
	ax1, ay1, ax2, ay2 := box(a)
	bx1, by1, bx2, by2 := box(b)
	return ax1 <= bx1 && ay1 <= by1 && bx2 <= ax2 && by2 <= ay2
}

func boxIntersects(a, b gtypes.GeometryValue) bool {
	ax1, ay1, ax2, ay2 := box(a)
	bx1, by1, bx2, by2 := box(b)
	return ax1 <= bx2 && bx1 <= ax2 && ay1 <= by2 && by1 <= ay2
}

// pointRel evaluates go-mysql-server's relation mk(p, g) for a point.
func pointRel(ctx *sql.Context, mk func(a, b sql.Expression) sql.Expression, p gtypes.Point, g gtypes.GeometryValue) (bool, error) {
	e := mk(expression.NewLiteral(p, gtypes.PointType{}), expression.NewLiteral(g, gtypes.GeometryType{}))
	v, err := e.Eval(ctx, nil)
	if err != nil {
		return false, err
	}
	ok, _ := v.(bool)
	return ok, nil
}

// stEquals is ST_Equals(a, b): equal values, or each within the other.
func stEquals(ctx *sql.Context, a, b gtypes.GeometryValue) (bool, error) {
	if pa, ok := a.(gtypes.Point); ok {
		pb, ok := b.(gtypes.Point)
		return ok && pa.X == pb.X && pa.Y == pb.Y, nil
	}
	if bytes.Equal(a.Serialize(), b.Serialize()) {
		return true, nil
	}
	if !boxContains(a, b) || !boxContains(b, a) {
		return false, nil
	}
	ok, err := stWithin(ctx, a, b)
	if err != nil || !ok {
		return false, err
	}
	return stWithin(ctx, b, a)
}

// stWithin is ST_Within(a, b) as MariaDB answers it: every point of a
// lies in b or on its boundary (a point on a polygon's edge, or a line's
// end point, is within it).
func stWithin(ctx *sql.Context, a, b gtypes.GeometryValue) (bool, error) {
	var verts []gtypes.Point
	var edges [][2]gtypes.Point
	shape(a, &verts, &edges)
	if len(verts) == 0 {
		return false, nil
	}
	var bverts []gtypes.Point
	var bedges [][2]gtypes.Point
	shape(b, &bverts, &bedges)
	for _, e := range edges {
		for _, f := range bedges {
			if segmentsCross(e[0], e[1], f[0], f[1]) {
				return false, nil
			}
		}
	}
	probes := verts
	for _, e := range edges {
		probes = append(probes, gtypes.Point{SRID: e[0].SRID, X: (e[0].X + e[1].X) / 2, Y: (e[0].Y + e[1].Y) / 2})
	}
	for _, p := range probes {
		ok, err := pointRel(ctx, spatial.NewIntersects, p, b)
		if err != nil || !ok {
			return false, err
		}
	}
	return true, nil
}

// shape collects a geometry's vertices and edges.
func shape(g gtypes.GeometryValue, verts *[]gtypes.Point, edges *[][2]gtypes.Point) {
	line := func(ps []gtypes.Point) {
		*verts = append(*verts, ps...)
		for i := 1; i < len(ps); i++ {
			*edges = append(*edges, [2]gtypes.Point{ps[i-1], ps[i]})
		}
	}
	switch g := g.(type) {
	case gtypes.Point:
		*verts = append(*verts, g)
	case gtypes.LineString:
		line(g.Points)
	case gtypes.Polygon:
		for _, l := range g.Lines {
			line(l.Points)
		}
	case gtypes.MultiPoint:
		*verts = append(*verts, g.Points...)
	case gtypes.MultiLineString:
		for _, l := range g.Lines {
			line(l.Points)
		}
	case gtypes.MultiPolygon:
		for _, p := range g.Polygons {
			shape(p, verts, edges)
		}
	case gtypes.GeomColl:
		for _, x := range g.Geoms {
			shape(x, verts, edges)
		}
	}
}

// segmentsCross reports whether segments ab and cd cross at one point
// inside both (touching at an end point or overlapping is no crossing).
func segmentsCross(a, b, c, d gtypes.Point) bool {
	o1, o2 := orient(a, b, c), orient(a, b, d)
	o3, o4 := orient(c, d, a), orient(c, d, b)
	return o1*o2 < 0 && o3*o4 < 0
}

// orient is the sign of the turn a -> b -> c.
func orient(a, b, c gtypes.Point) int {
	v := (b.X-a.X)*(c.Y-a.Y) - (b.Y-a.Y)*(c.X-a.X)
	switch {
	case v > 1e-12*math.Max(1, math.Abs(b.X-a.X)+math.Abs(b.Y-a.Y)):
		return 1
	case v < -1e-12*math.Max(1, math.Abs(b.X-a.X)+math.Abs(b.Y-a.Y)):
		return -1
	}
	return 0
}

// centroidFunc is ST_Centroid(g) as MariaDB has it: the centre of mass of
// a POLYGON or MULTIPOLYGON (holes taken out), a point of g's SRID; NULL
// for any other kind, as in MariaDB, and for NULL.
type centroidFunc struct {
	expression.UnaryExpression
}

var _ sql.FunctionExpression = (*centroidFunc)(nil)

func newCentroid(g sql.Expression) sql.Expression {
	return &centroidFunc{expression.UnaryExpression{Child: g}}
}

// FunctionName implements sql.FunctionExpression.
func (c *centroidFunc) FunctionName() string { return "st_centroid" }

// Description implements sql.FunctionExpression.
func (c *centroidFunc) Description() string { return "returns the centroid of a geometry." }

func (c *centroidFunc) String() string { return fmt.Sprintf("st_centroid(%s)", c.Child) }

// Type is POINT.
func (c *centroidFunc) Type() sql.Type { return gtypes.PointType{} }

// WithChildren implements sql.Expression.
func (c *centroidFunc) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	if len(children) != 1 {
		return nil, sql.ErrInvalidChildrenNumber.New(c, len(children), 1)
	}
	return newCentroid(children[0]), nil
}

// Eval computes the centroid.
func (c *centroidFunc) Eval(ctx *sql.Context, row sql.Row) (interface{}, error) {
	v, err := c.Child.Eval(ctx, row)
	if err != nil || v == nil {
		return nil, err
	}
	g, ok := v.(gtypes.GeometryValue)
	if !ok {
		return nil, sql.ErrInvalidGISData.New("st_centroid")
	}
	switch g.(type) {
	case gtypes.Polygon, gtypes.MultiPolygon:
	default:
		return nil, nil
	}
	var m moments
	m.add(g)
	p, ok := m.centre()
	if !ok {
		return nil, nil
	}
	p.SRID = g.GetSRID()
	return p, nil
}

// moments sums the weighted centres of a geometry's parts, per dimension.
type moments struct {
	w, x, y [3]float64 // by dimension: total weight, weighted x and y
	n       [3]int     // parts seen
}

func (m *moments) point(p gtypes.Point) {
	m.w[0]++
	m.x[0] += p.X
	m.y[0] += p.Y
	m.n[0]++
}

func (m *moments) line(ps []gtypes.Point) {
	for i := 1; i < len(ps); i++ {
		a, b := ps[i-1], ps[i]
		l := math.Hypot(b.X-a.X, b.Y-a.Y)
		m.w[1] += l
		m.x[1] += l * (a.X + b.X) / 2
		m.y[1] += l * (a.Y + b.Y) / 2
	}
	m.n[1]++
}

// ring adds a ring's area (the first ring of a polygon) or removes it (a
// hole).
func (m *moments) ring(ps []gtypes.Point, hole bool) {
	var a, cx, cy float64
	for i := 1; i < len(ps); i++ {
		p, q := ps[i-1], ps[i]
		cross := p.X*q.Y - q.X*p.Y
		a += cross
		cx += (p.X + q.X) * cross
		cy += (p.Y + q.Y) * cross
	}
	if a == 0 {
		return
	}
	area := math.Abs(a) / 2
	x, y := cx/(3*a), cy/(3*a)
	if hole {
		area = -area
	}
	m.w[2] += area
	m.x[2] += area * x
	m.y[2] += area * y
	m.n[2]++
}

func (m *moments) add(g gtypes.GeometryValue) {
	switch g := g.(type) {
	case gtypes.Point:
		m.point(g)
	case gtypes.MultiPoint:
		for _, p := range g.Points {
			m.point(p)
		}
	case gtypes.LineString:
		m.line(g.Points)
	case gtypes.MultiLineString:
		for _, l := range g.Lines {
			m.line(l.Points)
		}
	case gtypes.Polygon:
		for i, l := range g.Lines {
			m.ring(l.Points, i > 0)
		}
	case gtypes.MultiPolygon:
		for _, p := range g.Polygons {
			m.add(p)
		}
	case gtypes.GeomColl:
		for _, x := range g.Geoms {
			m.add(x)
		}
	}
}

// centre is the centroid of the highest dimension present.
func (m *moments) centre() (gtypes.Point, bool) {
	for d := 2; d >= 0; d-- {
		if m.n[d] > 0 && m.w[d] != 0 {
			return gtypes.Point{X: m.x[d] / m.w[d], Y: m.y[d] / m.w[d]}, true
		}
	}
	return gtypes.Point{}, false
}
