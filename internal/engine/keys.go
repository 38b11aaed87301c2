package engine

import (
	"encoding/binary"

	"github.com/handlerdb/handlerdb/internal/types"
)

// Key space layout in Pebble.
//
//	0x00 'm'                       catalog meta (version, next table id)
//	0x00 'd' <name>                a database
//	0x00 't' <table id u32>        a table definition
//	0x00 'a' <table id u32>        a table's AUTO_INCREMENT counter (u64)
//	0x00 'h' <table id u32>        a table's hidden row id counter (u64)
//	0x00 'b' <name>                a named system record (users, grants)
//	0x00 'r'                       the replica's binlog position (replica.go)
//	0x01 <table id u32> <index id u32> <key>
//	                               an index entry; the primary index's value
//	                               is the encoded row, a secondary index's
//	                               value is the primary key bytes
//
// <key> is the concatenation of types.AppendKey of the index columns, so the
// byte order is MySQL's comparison order; non-unique secondary indexes (and
// unique ones holding a NULL) append the primary key columns. A column with
// a prefix length (Index.Prefix) is keyed by its value cut to that many
// characters of its character set (bytes for binary kinds): the prefix's
// collation weights (see keyPart).
const (
	sysPrefix  = 0x00
	dataPrefix = 0x01

	sysMeta     = 'm'
	sysDatabase = 'd'
	sysTable    = 't'
	sysAutoInc  = 'a'
	sysRowID    = 'h'
	sysBlob     = 'b'
	sysDrops    = 'x' // index ranges to delete later (drops.go)
	sysReplica  = 'r' // the replica's position (replica.go)
	sysFeed     = 'f' // the change feed's last sequence number (feed.go)
	sysLog      = 'l' // the change log's records, by sequence number (feed.go)
)

func blobKey(name string) []byte {
	return append([]byte{sysPrefix, sysBlob}, name...)
}

var metaKey = []byte{sysPrefix, sysMeta}

func databaseKey(name string) []byte {
	return append([]byte{sysPrefix, sysDatabase}, name...)
}

func tableSysKey(kind byte, id uint32) []byte {
	return binary.BigEndian.AppendUint32([]byte{sysPrefix, kind}, id)
}

// indexPrefixLen is the length of an indexPrefix.
const indexPrefixLen = 9

// indexPrefix is the prefix of every entry of one index.
func indexPrefix(tableID, indexID uint32) []byte {
	k := make([]byte, 0, indexPrefixLen)
	k = append(k, dataPrefix)
	k = binary.BigEndian.AppendUint32(k, tableID)
	return binary.BigEndian.AppendUint32(k, indexID)
}

// tablePrefix is the prefix of every index entry of one table.
func tablePrefix(tableID uint32) []byte {
	return binary.BigEndian.AppendUint32([]byte{dataPrefix}, tableID)
}

// prefixEnd returns the smallest key greater than every key that starts
// with p, appended to dst; nil when there is none.
func prefixEnd(dst, p []byte) []byte {
	dst = append(dst, p...)
	for i := len(dst) - 1; i >= 0; i-- {
		if dst[i] != 0xff {
			dst[i]++
			return dst[:i+1]
		}
	}
	return nil
}

// appendIndexKey appends the key columns of idx taken from row.
func appendIndexKey(dst []byte, t *Table, idx *Index, row Row) []byte {
	dst = append(dst, idx.prefix...)
	for i, c := range idx.Columns {
		dst = appendKeyPart(dst, t, idx, i, row[c])
	}
	return dst
}

// appendKeyPart appends the key of v as part i of idx.
func appendKeyPart(dst []byte, t *Table, idx *Index, i int, v types.Value) []byte {
	typ := &t.Columns[idx.Columns[i]].Type
	v, _ = keyPart(typ, idx, i, v)
	return types.AppendKey(dst, typ, v)
}

// keyPart returns v as part i of idx keys it: cut to the part's prefix
// length, if it has one. full reports whether the result fills that
// length, so that the keys of longer values equal it too. The result
// aliases v.
func keyPart(typ *types.Type, idx *Index, i int, v types.Value) (out types.Value, full bool) {
	if idx.Prefix == nil || idx.Prefix[i] == 0 || v.Null {
		return v, false
	}
	n := int(idx.Prefix[i])
	if typ.Collation == nil {
		if len(v.B) >= n {
			v.B = v.B[:n]
			return v, true
		}
		return v, false
	}
	v.B = typ.Collation.Truncate(v.B, n)
	return v, typ.Collation.CharLen(v.B) == n
}

// KeyValue returns v as part i of idx compares it: cut to the part's
// prefix length, if any. MariaDB names a duplicate of a prefix key by
// these values. Safe for concurrent use; the result aliases v.
func (idx *Index) KeyValue(t *Table, i int, v types.Value) types.Value {
	v, _ = keyPart(&t.Columns[idx.Columns[i]].Type, idx, i, v)
	return v
}

// appendPKColumns appends the key columns of the primary index (without the
// index prefix): the part a secondary entry stores to reach its row.
func appendPKColumns(dst []byte, t *Table, row Row, rowID uint64) []byte {
	if t.Primary.Hidden {
		return binary.BigEndian.AppendUint64(dst, rowID)
	}
	for i, c := range t.Primary.Columns {
		dst = appendKeyPart(dst, t, t.Primary, i, row[c])
	}
	return dst
}

// hasNull reports whether any of idx's columns is NULL in row.
func hasNull(idx *Index, row Row) bool {
	for _, c := range idx.Columns {
		if row[c].Null {
			return true
		}
	}
	return false
}

// primaryKey appends the full primary index key of row.
func primaryKey(dst []byte, t *Table, row Row, rowID uint64) []byte {
	dst = append(dst, t.Primary.prefix...)
	return appendPKColumns(dst, t, row, rowID)
}

// secondaryKey appends idx's stored key for row: the index columns, plus
// the primary key columns unless idx is unique and row has no NULL in it.
func secondaryKey(dst []byte, t *Table, idx *Index, row Row, pkCols []byte) []byte {
	dst = appendIndexKey(dst, t, idx, row)
	if !idx.Unique || hasNull(idx, row) {
		dst = append(dst, pkCols...)
	}
	return dst
}
