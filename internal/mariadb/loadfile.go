package mariadb

import (
	"fmt"
	"io"
	"os"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression/function"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	gmstypes "github.com/dolthub/go-mysql-server/sql/types"

	"github.com/handlerdb/handlerdb/internal/sqlbackend"
)

// hasFilePrivilege reports whether the session's account holds FILE
// (always true when the catalog keeps no accounts).
func hasFilePrivilege(ctx *sql.Context, a *analyzer.Analyzer) bool {
	mdb := a.Catalog.MySQLDb
	if mdb == nil || !mdb.Enabled() {
		return true
	}
	return mdb.UserHasPrivileges(ctx, sql.NewPrivilegedOperation(sql.PrivilegeCheckSubject{}, sql.PrivilegeType_File))
}

// loadFile is LOAD_FILE(name) as MariaDB has it: the file's bytes, or NULL
// when the account lacks FILE, the file is outside secure_file_priv, cannot
// be read, or is larger than max_allowed_packet. (go-mysql-server's own
// panics reading max_allowed_packet, an unsigned variable, as int64.)
type loadFile struct {
	name sql.Expression
	a    *analyzer.Analyzer
}

var _ sql.FunctionExpression = (*loadFile)(nil)

func (l *loadFile) FunctionName() string       { return "load_file" }
func (l *loadFile) Description() string        { return "returns the contents of a file" }
func (l *loadFile) Resolved() bool             { return l.name.Resolved() }
func (l *loadFile) String() string             { return fmt.Sprintf("LOAD_FILE(%s)", l.name) }
func (l *loadFile) Type() sql.Type             { return gmstypes.LongBlob }
func (l *loadFile) IsNullable() bool           { return true }
func (l *loadFile) Children() []sql.Expression { return []sql.Expression{l.name} }
func (l *loadFile) CollationCoercibility(*sql.Context) (sql.CollationID, byte) {
	return sql.Collation_binary, 5
}

func (l *loadFile) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	if len(children) != 1 {
		return nil, sql.ErrInvalidChildrenNumber.New(l, len(children), 1)
	}
	return &loadFile{name: children[0], a: l.a}, nil
}

// Eval reads the file; every refusal is NULL, as in MariaDB.
func (l *loadFile) Eval(ctx *sql.Context, row sql.Row) (interface{}, error) {
	v, err := l.name.Eval(ctx, row)
	if err != nil || v == nil {
		return nil, err
	}
	name, _, err := gmstypes.LongText.Convert(ctx, v)
	if err != nil {
		return nil, nil
	}
	if !hasFilePrivilege(ctx, l.a) {
		return nil, nil
	}
	path := fmt.Sprint(name)
	if !sqlbackend.UnderSecureFilePriv(path) {
		return nil, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, nil
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() || st.Size() > maxPacket(ctx) {
		return nil, nil
	}
	data := make([]byte, st.Size())
	if _, err := io.ReadFull(f, data); err != nil {
		return nil, nil
	}
	return data, nil
}

// ruleLoadFile swaps go-mysql-server's LOAD_FILE, which panics reading the
// unsigned max_allowed_packet as an int64, for loadFile.

// loadFileRule replaces go-mysql-server's LOAD_FILE by loadFile.
func loadFileRule(ctx *sql.Context, a *analyzer.Analyzer, n sql.Node, scope *plan.Scope, sel analyzer.RuleSelector, qf *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	return transform.NodeExprsWithOpaque(n, func(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
		lf, ok := e.(*function.LoadFile)
		if !ok {
			return e, transform.SameTree, nil
		}
		return &loadFile{name: lf.Children()[0], a: a}, transform.NewTree, nil
	})
}
