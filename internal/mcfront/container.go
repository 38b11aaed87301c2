package mcfront

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/handlerdb/handlerdb/internal/engine"
	"github.com/handlerdb/handlerdb/internal/types"
)

// Containers map memcached keys to tables, as InnoDB's memcached plugin
// did: the rows of innodb_memcache.containers (its columns: name,
// db_schema, db_table, key_columns, value_columns, flags, cas_column,
// expire_time_column, unique_idx_name_on_key) each name a table, the
// column holding the key (a primary or unique key, named by the index),
// the columns a value is split into (separated by config_options'
// "separator", | by default), and optional flags, cas and expiry columns.
// A connection uses the container named "default" (else the first by
// name); `get @@name.key` reads another, `get @@name` switches.

// Where the configuration lives.
const (
	ConfigDB       = "innodb_memcache"
	containersName = "containers"
	optionsName    = "config_options"
	// the default container's table, made at first start
	defaultTable = "cache"
)

// The definitions the bootstrap creates, as SQL (the binary log carries
// them as statements).
var bootstrapDDL = []struct{ table, sql string }{
	{containersName, "CREATE TABLE `containers` (`name` varchar(50) NOT NULL, `db_schema` varchar(250) NOT NULL, " +
		"`db_table` varchar(250) NOT NULL, `key_columns` varchar(250) NOT NULL, `value_columns` varchar(250) DEFAULT NULL, " +
		"`flags` varchar(250) NOT NULL DEFAULT '0', `cas_column` varchar(250) DEFAULT NULL, " +
		"`expire_time_column` varchar(250) DEFAULT NULL, `unique_idx_name_on_key` varchar(250) NOT NULL, PRIMARY KEY (`name`))"},
	{optionsName, "CREATE TABLE `config_options` (`name` varchar(50) NOT NULL, `value` varchar(50) DEFAULT NULL, PRIMARY KEY (`name`))"},
	{defaultTable, "CREATE TABLE `cache` (`mc_key` varbinary(250) NOT NULL, `mc_value` mediumblob, " +
		"`mc_flags` int(10) unsigned NOT NULL DEFAULT 0, `mc_cas` bigint(20) unsigned NOT NULL DEFAULT 0, " +
		"`mc_expire` int(10) unsigned NOT NULL DEFAULT 0, PRIMARY KEY (`mc_key`))"},
}

// tableDefs are bootstrapDDL's tables for the engine.
func tableDef(name string) *engine.TableDef {
	col := func(name, typ string, nullable bool, def string) types.Column {
		t, err := types.ParseType(typ)
		if err != nil {
			panic(err)
		}
		c := types.Column{Name: name, Type: t, Nullable: nullable}
		if def != "" {
			v := types.Convert(&t, []byte(def), nil)
			c.Default = &v
		}
		return c
	}
	pk := func(c string) []engine.IndexDef {
		return []engine.IndexDef{{Name: "PRIMARY", Primary: true, Unique: true, Columns: []string{c}}}
	}
	switch name {
	case containersName:
		return &engine.TableDef{Name: name, Indexes: pk("name"), Columns: []types.Column{
			col("name", "varchar(50)", false, ""), col("db_schema", "varchar(250)", false, ""),
			col("db_table", "varchar(250)", false, ""), col("key_columns", "varchar(250)", false, ""),
			col("value_columns", "varchar(250)", true, ""), col("flags", "varchar(250)", false, "0"),
			col("cas_column", "varchar(250)", true, ""), col("expire_time_column", "varchar(250)", true, ""),
			col("unique_idx_name_on_key", "varchar(250)", false, "")}}
	case optionsName:
		return &engine.TableDef{Name: name, Indexes: pk("name"), Columns: []types.Column{
			col("name", "varchar(50)", false, ""), col("value", "varchar(50)", true, "")}}
	default:
		return &engine.TableDef{Name: name, Indexes: pk("mc_key"), Columns: []types.Column{
			col("mc_key", "varbinary(250)", false, ""), col("mc_value", "mediumblob", true, ""),
			col("mc_flags", "int unsigned", false, "0"), col("mc_cas", "bigint unsigned", false, "0"),
			col("mc_expire", "int unsigned", false, "0")}}
	}
}

// Bootstrap makes the configuration database and, when it holds no
// container, the default container and its table, so that a fresh server
// is a persistent memcached. Existing tables are left as they are.
func Bootstrap(e *engine.Engine) error {
	cat := e.Catalog()
	if _, err := cat.Database(ConfigDB); err != nil {
		if err := e.Update(context.Background(), func(tx *engine.Job) error {
			if err := tx.CreateDatabase(ConfigDB); err != nil {
				return err
			}
			tx.LogStatement("", "CREATE DATABASE `"+ConfigDB+"`")
			return nil
		}); err != nil && !errors.Is(err, engine.ErrDatabaseExists) && !errors.Is(err, engine.ErrTableExists) {
			return err
		}
	}
	for _, d := range bootstrapDDL {
		if _, err := e.Catalog().Table(ConfigDB, d.table); err == nil {
			continue
		}
		if d.table == defaultTable {
			if n, err := containerCount(e); err != nil || n > 0 {
				continue // the user's containers: no default table
			}
		}
		if err := e.Update(context.Background(), func(tx *engine.Job) error {
			if _, err := tx.CreateTable(ConfigDB, tableDef(d.table)); err != nil {
				return err
			}
			tx.LogStatement(ConfigDB, d.sql)
			return nil
		}); err != nil && !errors.Is(err, engine.ErrDatabaseExists) && !errors.Is(err, engine.ErrTableExists) {
			return err
		}
	}
	if n, err := containerCount(e); err != nil || n > 0 {
		return err
	}
	return e.Update(context.Background(), func(tx *engine.Job) error {
		cat := tx.Catalog()
		ct, err := cat.Table(ConfigDB, containersName)
		if err != nil {
			return err
		}
		row := make(engine.Row, len(ct.Columns))
		for i, v := range []string{"default", ConfigDB, defaultTable, "mc_key", "mc_value", "mc_flags", "mc_cas", "mc_expire", "PRIMARY"} {
			row[i] = types.Value{B: []byte(v)}
		}
		if _, err := tx.CheckedInsert(ct, row); err != nil {
			return err
		}
		ot, err := cat.Table(ConfigDB, optionsName)
		if err != nil {
			return err
		}
		for _, kv := range [][2]string{{"separator", "|"}, {"table_map_delimiter", "."}} {
			found := false
			tx.Find(ot, &engine.Query{Index: ot.Primary, Key: []types.Value{{B: []byte(kv[0])}}, Limit: 1}, func(engine.Row) bool {
				found = true
				return false
			})
			if !found {
				if _, err := tx.CheckedInsert(ot, engine.Row{{B: []byte(kv[0])}, {B: []byte(kv[1])}}); err != nil {
					return err
				}
			}
		}
		return nil
	})
}

func containerCount(e *engine.Engine) (int, error) {
	ct, err := e.Catalog().Table(ConfigDB, containersName)
	if err != nil {
		return 0, nil
	}
	n := 0
	err = e.Find(ct, &engine.Query{Index: ct.Primary}, func(engine.Row) bool { n++; return true })
	return n, err
}

// containerDef is one row of innodb_memcache.containers.
type containerDef struct {
	name, db, table, keyCol  string
	valueCols                []string
	flagsCol, casCol, expCol string
	index                    string
}

// config is what the configuration tables said when read.
type config struct {
	defs      map[string]*containerDef
	def       *containerDef // the connection's default
	separator []byte
}

// configCache reads the configuration tables again at most once a second
// (and when the catalog changes). Readers take the cached configuration
// without a lock; one refreshes it under mu.
type configCache struct {
	e        *engine.Engine
	cur      atomic.Pointer[cachedConfig]
	mu       sync.Mutex // one reader refreshes at a time
	bootOnce sync.Once
	bootErr  error
	// booting is set once a bootstrap began in this process: a reader
	// that meets its half-made configuration (the containers table
	// without its default row) waits for it instead of failing.
	booting atomic.Bool
}

type cachedConfig struct {
	conf *config
	at   time.Time
	cat  *engine.Catalog
}

const configTTL = time.Second

// get returns the configuration. The first time the configuration
// tables are found missing they are made (Bootstrap): a server no
// memcached client used has none (a fresh server stays fresh for a
// replica's copy). Only a caller outside the writer may ask for that
// (bootstrap true): Bootstrap waits for writer jobs. Safe for concurrent
// use.
func (cc *configCache) get(bootstrap bool) (*config, error) {
	conf, err := cc.read()
	if !bootstrap || !errors.Is(err, errNoConfig) && !(errors.Is(err, errNoContainer) && cc.booting.Load()) {
		return conf, err
	}
	// (Do returns only once the first call's bootstrap has: a caller
	// that came during it waits here)
	cc.bootOnce.Do(func() { cc.booting.Store(true); cc.bootErr = Bootstrap(cc.e) })
	if cc.bootErr != nil {
		return nil, cc.bootErr
	}
	cc.cur.Store(nil)
	return cc.read()
}

// read returns the cached configuration, or reads it again when it is
// older than configTTL or the catalog changed. A failed read is not
// cached.
func (cc *configCache) read() (*config, error) {
	cat := cc.e.Catalog()
	if c := cc.cur.Load(); c != nil && c.cat == cat && time.Since(c.at) < configTTL {
		return c.conf, nil
	}
	cc.mu.Lock()
	defer cc.mu.Unlock()
	if c := cc.cur.Load(); c != nil && c.cat == cat && time.Since(c.at) < configTTL {
		return c.conf, nil // another reader refreshed it meanwhile
	}
	conf, err := readConfig(cc.e)
	if err != nil {
		return conf, err
	}
	cc.cur.Store(&cachedConfig{conf: conf, at: time.Now(), cat: cat})
	return conf, nil
}

// errNoConfig is a store without the configuration tables.
var errNoConfig = errors.New("no memcached configuration (innodb_memcache.containers does not exist)")

// errNoContainer is a configuration without a usable container.
var errNoContainer = errors.New("no memcached container configured (innodb_memcache.containers is empty)")

func readConfig(e *engine.Engine) (*config, error) {
	cat := e.Catalog()
	ct, err := cat.Table(ConfigDB, containersName)
	if err != nil {
		return nil, errNoConfig
	}
	conf := &config{defs: map[string]*containerDef{}, separator: []byte("|")}
	cols := make([]int, 9)
	for i, n := range []string{"name", "db_schema", "db_table", "key_columns", "value_columns", "flags", "cas_column", "expire_time_column", "unique_idx_name_on_key"} {
		if cols[i] = ct.Column(n); cols[i] < 0 {
			return nil, fmt.Errorf("memcached containers: no column %s", n)
		}
	}
	var first *containerDef
	err = e.Find(ct, &engine.Query{Index: ct.Primary}, func(r engine.Row) bool {
		s := func(i int) string {
			v := r[cols[i]]
			if v.Null {
				return ""
			}
			return strings.TrimSpace(string(v.B))
		}
		d := &containerDef{name: s(0), db: s(1), table: s(2), keyCol: s(3), flagsCol: s(5), casCol: s(6), expCol: s(7), index: s(8)}
		d.valueCols = strings.FieldsFunc(s(4), func(r rune) bool { return r == ',' || r == '|' || r == ' ' || r == ';' })
		if d.flagsCol == "0" {
			d.flagsCol = ""
		}
		conf.defs[d.name] = d
		if first == nil {
			first = d
		}
		return true
	})
	if err != nil {
		return nil, err
	}
	conf.def = conf.defs["default"]
	if conf.def == nil {
		conf.def = first
	}
	if ot, err := cat.Table(ConfigDB, optionsName); err == nil {
		e.Find(ot, &engine.Query{Index: ot.Primary, Key: []types.Value{{B: []byte("separator")}}, Limit: 1}, func(r engine.Row) bool {
			if len(r) > 1 && !r[1].Null && len(r[1].B) > 0 {
				conf.separator = bytes.Clone(r[1].B)
			}
			return false
		})
	}
	if conf.def == nil {
		return conf, errNoContainer
	}
	return conf, nil
}

// container is a containerDef resolved against one catalog.
type container struct {
	def       *containerDef
	cat       *engine.Catalog
	t         *engine.Table
	idx       *engine.Index
	key       int   // key column
	values    []int // value columns
	flags     int   // -1: none
	cas, exp  int   // -1: none
	separator []byte
	isDefault bool    // the configuration's default container
	conf      *config // the configuration it was resolved in
}

// resolve looks d's table and columns up in cat.
func resolve(d *containerDef, cat *engine.Catalog, sep []byte) (*container, error) {
	t, err := cat.Table(d.db, d.table)
	if err != nil {
		return nil, fmt.Errorf("container %s: table %s.%s: %w", d.name, d.db, d.table, err)
	}
	c := &container{def: d, cat: cat, t: t, flags: -1, cas: -1, exp: -1, separator: sep}
	col := func(name string) (int, error) {
		if i := t.Column(name); i >= 0 {
			return i, nil
		}
		return -1, fmt.Errorf("container %s: no column %s in %s.%s", d.name, name, d.db, d.table)
	}
	if c.key, err = col(d.keyCol); err != nil {
		return nil, err
	}
	for _, v := range d.valueCols {
		i, err := col(v)
		if err != nil {
			return nil, err
		}
		c.values = append(c.values, i)
	}
	if len(c.values) == 0 {
		return nil, fmt.Errorf("container %s: no value columns", d.name)
	}
	for _, opt := range []struct {
		name string
		dst  *int
	}{{d.flagsCol, &c.flags}, {d.casCol, &c.cas}, {d.expCol, &c.exp}} {
		if opt.name == "" {
			continue
		}
		if *opt.dst, err = col(opt.name); err != nil {
			return nil, err
		}
	}
	c.idx = t.IndexFold(d.index)
	if c.idx == nil && strings.EqualFold(d.index, "PRIMARY") {
		c.idx = t.Primary
	}
	if c.idx == nil || !(c.idx.Primary || c.idx.Unique) || len(c.idx.Columns) != 1 || c.idx.Columns[0] != c.key {
		return nil, fmt.Errorf("container %s: %s is not a one-column unique index on %s", d.name, d.index, d.keyCol)
	}
	return c, nil
}
