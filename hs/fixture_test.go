package hs_test

import (
	"context"
	"database/sql"
	"fmt"
	"log"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/handlerdb/handlerdb/internal/config"
	"github.com/handlerdb/handlerdb/internal/engine"
	"github.com/handlerdb/handlerdb/internal/server"
	"github.com/handlerdb/handlerdb/internal/types"

	_ "github.com/go-sql-driver/mysql"
	"github.com/sirupsen/logrus"
)

// The in-process server every test and example of the package uses.
var (
	srv       *server.Server
	serverDSN string // hs://127.0.0.1:<read>?wr_port=<write>
	readAddr  string
	writeAddr string
	local     *env
)

const testDB = "hstest"

func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	logrus.SetLevel(logrus.ErrorLevel) // the SQL front logs every connection
	dir, err := os.MkdirTemp("", "hs-test-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	s, err := startServer(dir, "", "", true)
	if err != nil {
		log.Fatal(err)
	}
	srv = s
	defer func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		srv.Shutdown(ctx)
	}()
	readAddr = srv.HS().ReadAddr().String()
	writeAddr = srv.HS().WriteAddr().String()
	_, wport, _ := strings.Cut(writeAddr, ":")
	serverDSN = "hs://" + readAddr + "/" + testDB + "?wr_port=" + wport
	local = &env{name: "handlerdb", dsn: serverDSN, db: testDB, eng: srv.Engine()}
	if a := srv.SQLAddr(); a != nil {
		db, err := sql.Open("mysql", "root@tcp("+a.String()+")/")
		if err == nil && db.Ping() == nil {
			local.sql = db
			defer db.Close()
		}
	}
	if err := local.createDatabase(); err != nil {
		log.Fatal(err)
	}
	if err := createExampleTables(local); err != nil {
		log.Fatal(err)
	}
	return m.Run()
}

// startServer starts a HandlerDB on ephemeral ports (with the SQL port when
// it starts, without it otherwise, or when HS_TEST_NO_SQL is set). Only one
// server of the process gets the SQL port: the SQL front keeps global
// state.
func startServer(dir, rdSecret, wrSecret string, withSQL bool) (*server.Server, error) {
	cfg := config.Default()
	cfg.DataDir = dir
	cfg.Port, cfg.HSPort, cfg.HSPortWr, cfg.MemcachedPort = 0, 0, 0, -1
	cfg.Durability = engine.DurabilityNone
	cfg.AdminAddress = ""
	cfg.HSSecret, cfg.HSSecretWr = rdSecret, wrSecret
	cfg.HSSQLUsers = true // TestUserPassword logs in as a SQL account
	if !withSQL || os.Getenv("HS_TEST_NO_SQL") != "" {
		cfg.Port = -1 // create the tables through the engine
	}
	s, err := server.Start(cfg, nil)
	if err != nil {
		cfg.Port = -1
		s, err = server.Start(cfg, nil)
	}
	return s, err
}

// env is a server the tests run against: the in-process HandlerDB, or a
// real HandlerSocket (see TestRealHandlerSocket).
type env struct {
	name string
	dsn  string
	db   string
	sql  *sql.DB        // DDL and seeding over SQL when set
	eng  *engine.Engine // else directly through the engine
}

// column and table describe a test table once for both ways of creating it.
type column struct {
	name, typ string
	null      bool
	def       string // DEFAULT value ("" = none)
	autoInc   bool
}

type index struct {
	name    string // "PRIMARY" for the primary key
	unique  bool
	columns []string
}

type table struct {
	name    string
	columns []column
	indexes []index
}

func (e *env) createDatabase() error {
	if e.sql != nil {
		_, err := e.sql.Exec("CREATE DATABASE IF NOT EXISTS " + e.db)
		return err
	}
	return e.eng.Update(context.Background(), func(tx *engine.Job) error {
		if _, err := tx.Catalog().Database(e.db); err == nil {
			return nil
		}
		return tx.CreateDatabase(e.db)
	})
}

// create drops and creates t and inserts rows (nil is NULL).
func (e *env) create(t table, rows ...[]any) error {
	if e.sql != nil {
		return e.createSQL(t, rows)
	}
	return e.eng.Update(context.Background(), func(tx *engine.Job) error {
		if _, err := tx.Catalog().Table(e.db, t.name); err == nil {
			if err := tx.DropTable(e.db, t.name); err != nil {
				return err
			}
		}
		def := &engine.TableDef{Name: t.name}
		for _, c := range t.columns {
			ty, err := types.ParseType(c.typ)
			if err != nil {
				return err
			}
			col := types.Column{Name: c.name, Type: ty, Nullable: c.null, AutoIncrement: c.autoInc}
			if c.def != "" {
				v := types.Convert(&ty, []byte(c.def), nil)
				col.Default = &v
			}
			def.Columns = append(def.Columns, col)
		}
		for _, ix := range t.indexes {
			def.Indexes = append(def.Indexes, engine.IndexDef{Name: ix.name, Primary: ix.name == "PRIMARY", Unique: ix.unique || ix.name == "PRIMARY", Columns: ix.columns})
		}
		tb, err := tx.CreateTable(e.db, def)
		if err != nil {
			return err
		}
		for _, r := range rows {
			row := make(engine.Row, len(def.Columns))
			for i, v := range r {
				if v == nil {
					row[i] = types.Value{Null: true}
					continue
				}
				row[i] = types.Convert(&def.Columns[i].Type, []byte(fmt.Sprint(v)), nil)
			}
			if _, err := tx.Insert(tb, row); err != nil {
				return err
			}
		}
		return nil
	})
}

func (e *env) createSQL(t table, rows [][]any) error {
	if _, err := e.sql.Exec("DROP TABLE IF EXISTS " + e.db + "." + t.name); err != nil {
		return err
	}
	var parts []string
	for _, c := range t.columns {
		s := c.name + " " + c.typ
		if c.null {
			s += " NULL"
		} else {
			s += " NOT NULL"
		}
		if c.def != "" {
			s += " DEFAULT '" + c.def + "'"
		}
		if c.autoInc {
			s += " AUTO_INCREMENT"
		}
		parts = append(parts, s)
	}
	for _, ix := range t.indexes {
		switch {
		case ix.name == "PRIMARY":
			parts = append(parts, "PRIMARY KEY ("+strings.Join(ix.columns, ",")+")")
		case ix.unique:
			parts = append(parts, "UNIQUE KEY "+ix.name+" ("+strings.Join(ix.columns, ",")+")")
		default:
			parts = append(parts, "KEY "+ix.name+" ("+strings.Join(ix.columns, ",")+")")
		}
	}
	ddl := "CREATE TABLE " + e.db + "." + t.name + " (" + strings.Join(parts, ", ") + ") ENGINE=InnoDB"
	if _, err := e.sql.Exec(ddl); err != nil {
		return fmt.Errorf("%s: %w", ddl, err)
	}
	for _, r := range rows {
		q := "INSERT INTO " + e.db + "." + t.name + " VALUES (" + strings.TrimSuffix(strings.Repeat("?,", len(r)), ",") + ")"
		if _, err := e.sql.Exec(q, r...); err != nil {
			return fmt.Errorf("%s: %w", q, err)
		}
	}
	return nil
}

// mustCreate is create for a test.
func (e *env) mustCreate(t testing.TB, tb table, rows ...[]any) {
	t.Helper()
	if err := e.create(tb, rows...); err != nil {
		t.Fatalf("create table %s: %v", tb.name, err)
	}
}

// The tables of the tests.

// fruitTable is the conformance corpus's tf: a primary key, a string index
// and a composite index.
func fruitTable(name string) table {
	return table{name: name,
		columns: []column{
			{name: "k", typ: "INT"},
			{name: "a", typ: "VARCHAR(16)", null: true},
			{name: "b", typ: "INT", null: true},
			{name: "c", typ: "INT", def: "0"},
		},
		indexes: []index{{name: "PRIMARY", columns: []string{"k"}}, {name: "ia", columns: []string{"a"}}, {name: "ibc", columns: []string{"b", "c"}}},
	}
}

var fruitRows = [][]any{
	{1, "apple", 10, 1}, {2, "banana", 20, 2}, {3, "cherry", 20, 3}, {4, nil, 30, 4},
	{5, "", nil, 5}, {6, "banana", 40, 6}, {8, "fig", 20, 1}, {9, "grape", -10, 9},
}

// userTable has an AUTO_INCREMENT primary key.
func userTable(name string) table {
	t := plainUserTable(name)
	t.columns[0].autoInc = true
	return t
}

// plainUserTable is userTable without AUTO_INCREMENT, for inserts of
// explicit ids (MariaDB's HandlerSocket refuses them on an AUTO_INCREMENT
// column; HandlerDB accepts them).
func plainUserTable(name string) table {
	return table{name: name,
		columns: []column{
			{name: "id", typ: "INT"},
			{name: "name", typ: "VARCHAR(64)"},
			{name: "email", typ: "VARCHAR(255)", null: true},
			{name: "visits", typ: "INT", def: "0"},
			{name: "created", typ: "DATETIME", null: true},
		},
		indexes: []index{{name: "PRIMARY", columns: []string{"id"}}, {name: "iname", columns: []string{"name"}}},
	}
}

var userRows = [][]any{
	{1, "ann", "ann@example.com", 3, "2024-01-02 03:04:05"},
	{2, "bob", nil, 0, nil},
	{3, "cy", "", 7, "2023-12-31 23:59:59"},
}

// blobTable holds binary keys and values and a TEXT column.
func blobTable(name string) table {
	return table{name: name,
		columns: []column{
			{name: "k", typ: "VARBINARY(32)"},
			{name: "v", typ: "VARBINARY(300)", null: true},
			{name: "t", typ: "TEXT", null: true},
		},
		indexes: []index{{name: "PRIMARY", columns: []string{"k"}}},
	}
}

func createExampleTables(e *env) error {
	for _, name := range []string{"users", "ex_insert", "ex_update", "ex_delete", "ex_incr", "ex_pipeline", "ex_scan", "ex_find"} {
		if err := e.create(userTable(name), userRows...); err != nil {
			return err
		}
	}
	return nil
}
