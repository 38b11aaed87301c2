package mariadb

import (
	"strings"

	ast "github.com/dolthub/vitess/go/vt/sqlparser"
)

// charsetDefaults gives a character set named without a collation
// MariaDB 10.11's default collation for it where go-mysql-server's
// differs: CHARACTER SET utf8mb4 is utf8mb4_general_ci in MariaDB and
// utf8mb4_0900_ai_ci in MySQL 8 (go-mysql-server's table of defaults is
// its own, so the parsed statement is completed instead). It edits the
// statement's column types, table options, ALTER TABLE ... CHARACTER SET
// and CREATE/ALTER DATABASE options in place; st is the caller's.
func charsetDefaults(st ast.Statement) {
	switch s := st.(type) {
	case *ast.DDL:
		ddlCharsetDefaults(s)
	case *ast.AlterTable:
		for _, d := range s.Statements {
			ddlCharsetDefaults(d)
		}
	case *ast.DBDDL:
		var cs, coll bool
		for _, cc := range s.CharsetCollate {
			switch strings.ToLower(cc.Type) {
			case "character set", "charset":
				cs = cs || isUTF8MB4(cc.Value)
			case "collate":
				coll = true
			}
		}
		if cs && !coll {
			s.CharsetCollate = append(s.CharsetCollate, &ast.CharsetAndCollate{Type: "collate", Value: mariaUTF8MB4Default})
		}
	}
}

// mariaUTF8MB4Default is MariaDB 10.11's default collation of utf8mb4.
const mariaUTF8MB4Default = "utf8mb4_general_ci"

func isUTF8MB4(cs string) bool { return strings.EqualFold(cs, "utf8mb4") }

func ddlCharsetDefaults(d *ast.DDL) {
	if d == nil {
		return
	}
	if a := d.AlterCollationSpec; a != nil && isUTF8MB4(a.CharacterSet) && a.Collation == "" {
		a.Collation = mariaUTF8MB4Default
	}
	ts := d.TableSpec
	if ts == nil {
		return
	}
	for _, c := range ts.Columns {
		if c != nil && isUTF8MB4(c.Type.Charset) && c.Type.Collate == "" {
			c.Type.Collate = mariaUTF8MB4Default
		}
	}
	var cs, coll bool
	for _, o := range ts.TableOpts {
		switch strings.ToLower(o.Name) {
		case "character set", "charset":
			cs = cs || isUTF8MB4(o.Value)
		case "collate":
			coll = true
		}
	}
	if cs && !coll {
		ts.TableOpts = append(ts.TableOpts, &ast.TableOption{Name: "collate", Value: mariaUTF8MB4Default})
	}
}
