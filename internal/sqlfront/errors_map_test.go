package sqlfront

import (
	"context"
	"errors"
	"fmt"
	"testing"

	vmysql "github.com/dolthub/vitess/go/mysql"
	"github.com/go-sql-driver/mysql"

	"github.com/handlerdb/handlerdb/internal/engine"
	"github.com/handlerdb/handlerdb/internal/sqlbackend"
	"github.com/handlerdb/handlerdb/internal/types"
)

// TestErrorsEngineMapping: each engine error leaves the SQL front as
// MariaDB's error (through sqlbackend.MapError and the exit point, with
// no statement to consult).
func TestErrorsEngineMapping(t *testing.T) {
	intType := types.Type{Kind: types.Int}
	strType := types.Type{Kind: types.VarChar, Length: 10}
	for _, c := range []struct {
		err   error
		num   int
		state string
		msg   string
	}{
		{&engine.DuplicateKeyError{Table: "d.t", Index: "PRIMARY", Key: []types.Value{{I: 5}}, KeyTypes: []types.Type{intType}},
			1062, "23000", "Duplicate entry '5' for key 'PRIMARY'"},
		{&engine.DuplicateKeyError{Table: "d.t", Index: "ab", Key: []types.Value{{I: 1}, {B: []byte("p")}}, KeyTypes: []types.Type{intType, strType}},
			1062, "23000", "Duplicate entry '1-p' for key 'ab'"},
		{fmt.Errorf("%w: d", engine.ErrNoDatabase), 1049, "42000", "Unknown database 'd'"},
		{fmt.Errorf("%w: d.t", engine.ErrNoTable), 1146, "42S02", "Table 'd.t' doesn't exist"},
		{fmt.Errorf("%w: d", engine.ErrDatabaseExists), 1007, "HY000", "Can't create database 'd'; database exists"},
		{fmt.Errorf("%w: t", engine.ErrTableExists), 1050, "42S01", "Table 't' already exists"},
		{fmt.Errorf("%w: ix", engine.ErrIndexExists), 1061, "42000", "Duplicate key name 'ix'"},
		{fmt.Errorf("%w: ix", engine.ErrNoIndex), 1091, "42000", "Can't DROP INDEX `ix`; check that it exists"},
		{fmt.Errorf("%w: AUTO_INCREMENT on a DOUBLE column", engine.ErrBadAutoIncrement), 1075, "42000",
			"Incorrect table definition; there can be only one auto column and it must be defined as a key"},
		// The kind decides, not the text.
		{fmt.Errorf("%w: AUTO_INCREMENT is mentioned", engine.ErrBadDefinition), 1105, "HY000", "engine: bad definition: AUTO_INCREMENT is mentioned"},
		{&engine.Error{Kind: engine.ErrTableDefChanged, DB: "d", Table: "t", Detail: "d.t"}, 1412, "HY000",
			"Table definition has changed, please retry transaction (d.t)"},
		{fmt.Errorf("job: %w", engine.ErrClosed), 1053, "08S01", "Server shutdown in progress"},
	} {
		got, ok := (&errContext{}).translate(sqlbackend.MapError(c.err)).(*vmysql.SQLError)
		if !ok || got.Num != c.num || got.State != c.state || got.Message != c.msg {
			t.Errorf("%v:\n got: %v\nwant: %d (%s) %s", c.err, got, c.num, c.state, c.msg)
		}
	}
}

// TestErrorsCommitDuplicate: a duplicate key found when a transaction
// commits (another connection took the key meanwhile) is 1062 with the
// key's value and name.
func TestErrorsCommitDuplicate(t *testing.T) {
	ts := startTestServer(t, "", Config{})
	mustExec(t, ts.open(""), "CREATE DATABASE cd", "CREATE TABLE cd.t (id INT PRIMARY KEY, u VARCHAR(10), UNIQUE KEY uu (u))")
	a, b := ts.conn("cd"), ts.conn("cd")
	ctx := context.Background()
	mustExec(t, a, "BEGIN", "INSERT INTO t VALUES (1, 'Ab')")
	mustExec(t, b, "INSERT INTO t VALUES (2, 'ab')")
	_, err := a.ExecContext(ctx, "COMMIT")
	var me *mysql.MySQLError
	if !errors.As(err, &me) || me.Number != 1062 || string(me.SQLState[:]) != "23000" || me.Message != "Duplicate entry 'Ab' for key 'uu'" {
		t.Fatalf("COMMIT: %v, want 1062 (23000) Duplicate entry 'Ab' for key 'uu'", err)
	}
}
