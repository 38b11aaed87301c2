package mariadb

import (
	"strings"

	ast "github.com/dolthub/vitess/go/vt/sqlparser"
)

// go-mysql-server's column types have no TIME(n) below TIME(6): its
// planner refuses TIME(0) to TIME(5). HandlerDB's engine keeps a TIME
// column's fractional digits as MariaDB does. timeScales has the
// planner see every TIME(n) of CREATE TABLE and ALTER TABLE as TIME(6);
// the backend reads n from the statement's text (declaredType) and gives
// the engine's column that scale. It changes the statement in place, on
// the goroutine that parsed it.
func timeScales(st ast.Statement) {
	switch s := st.(type) {
	case *ast.DDL:
		ddlTimeScales(s)
	case *ast.AlterTable:
		for _, d := range s.Statements {
			ddlTimeScales(d)
		}
	}
}

func ddlTimeScales(d *ast.DDL) {
	if d == nil || d.TableSpec == nil {
		return
	}
	for _, c := range d.TableSpec.Columns {
		if c == nil || !strings.EqualFold(c.Type.Type, "time") || c.Type.Length == nil {
			continue
		}
		switch string(c.Type.Length.Val) {
		case "0", "1", "2", "3", "4", "5":
			c.Type.Length = ast.NewIntVal([]byte("6"))
		}
	}
}
