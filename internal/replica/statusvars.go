package replica

import (
	"encoding/binary"

	"github.com/dolthub/go-mysql-server/sql"
)

// queryCharsets reads the character sets a query event ran with from its
// status variables (Q_CHARSET_CODE: character_set_client,
// collation_connection and collation_server as collation ids), as
// session variables for the statement: a CREATE DATABASE without a
// character set takes the primary's collation_server, as on a MySQL
// replica. Ids go-mysql-server does not know are left out. The walk
// stops at the first variable it cannot size (a newer server's).
func queryCharsets(vars []byte) map[string]any {
	for len(vars) > 0 {
		code := vars[0]
		vars = vars[1:]
		var n int
		switch code {
		case 0: // Q_FLAGS2_CODE
			n = 4
		case 1: // Q_SQL_MODE_CODE
			n = 8
		case 2: // Q_CATALOG_CODE: length, text, NUL
			if len(vars) < 1 {
				return nil
			}
			n = 1 + int(vars[0]) + 1
		case 3: // Q_AUTO_INCREMENT
			n = 4
		case 4: // Q_CHARSET_CODE
			if len(vars) < 6 {
				return nil
			}
			out := map[string]any{}
			for i, name := range []string{"", "collation_connection", "collation_server"} {
				if name == "" {
					continue
				}
				if c := collationName(binary.LittleEndian.Uint16(vars[2*i:])); c != "" {
					out[name] = c
				}
			}
			return out
		case 5, 6: // Q_TIME_ZONE_CODE, Q_CATALOG_NZ_CODE: length, text
			if len(vars) < 1 {
				return nil
			}
			n = 1 + int(vars[0])
		case 7, 8: // Q_LC_TIME_NAMES_CODE, Q_CHARSET_DATABASE_CODE
			n = 2
		case 9: // Q_TABLE_MAP_FOR_UPDATE_CODE
			n = 8
		case 10: // Q_MASTER_DATA_WRITTEN_CODE
			n = 4
		case 11: // Q_INVOKER: user, host, each length-prefixed
			if len(vars) < 1 {
				return nil
			}
			u := 1 + int(vars[0])
			if len(vars) < u+1 {
				return nil
			}
			n = u + 1 + int(vars[u])
		case 12: // Q_UPDATED_DB_NAMES: count, NUL-terminated names
			if len(vars) < 1 {
				return nil
			}
			cnt, i := int(vars[0]), 1
			if cnt != 254 { // OVER_MAX_DBS_IN_EVENT_MTS: no names
				for ; cnt > 0 && i < len(vars); cnt-- {
					for i < len(vars) && vars[i] != 0 {
						i++
					}
					i++
				}
			}
			n = i
		case 13, 128: // Q_MICROSECONDS, Q_HRNOW (MariaDB)
			n = 3
		case 129: // Q_XID (MariaDB)
			n = 8
		default:
			return nil
		}
		if n > len(vars) {
			return nil
		}
		vars = vars[n:]
	}
	return nil
}

// collationName is go-mysql-server's name of a collation id, "" for an
// id it does not know (MariaDB numbers some of its own above MySQL's).
func collationName(id uint16) (name string) {
	defer func() {
		if recover() != nil { // an id past go-mysql-server's table
			name = ""
		}
	}()
	if id == 0 {
		return ""
	}
	return sql.CollationID(id).Name()
}
