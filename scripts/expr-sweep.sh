#!/usr/bin/env bash
# Differential sweep of expressions over every column type: runs each of
# a list of expressions (X + 0, CAST(X AS ...), GREATEST(X, 1), SUM(X),
# ...) on each column of one table, on HandlerDB and on MariaDB, and
# prints the statements whose answers differ, then the count. It found
# the numeric-context wrong answers of testdata/sqlcorpus/34-numeric-
# contexts.sql; what it still lists is open (see the issue notes).
#
# Usage: scripts/expr-sweep.sh            (servers as below)
# Env:   SWEEP  contexts (the default) or functions: which list of expressions
#        OURS   mariadb client options for HandlerDB (-h127.0.0.1 -P13506 -uroot)
#        MARIA  the same for MariaDB (-h127.0.0.1 -P13306 -ubench -pbench:
#               the anchor, ../shared/anchors/mariadb-hs.sh start)
#        DB     the database both have (test), where table sw is made
set -euo pipefail
OURS=${OURS:--h127.0.0.1 -P13506 -uroot}
MARIA=${MARIA:--h127.0.0.1 -P13306 -ubench -pbench}
DB=${DB:-test}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cat > "$work/setup.sql" <<'SQL'
DROP TABLE IF EXISTS sw;
CREATE TABLE sw (id INT PRIMARY KEY, i INT, u INT UNSIGNED, bi BIGINT, de DECIMAL(10,3), f FLOAT, db DOUBLE, c CHAR(5), v VARCHAR(20), tx TEXT, d DATE, t TIME, t3 TIME(3), dt DATETIME, dt6 DATETIME(6), ts TIMESTAMP NULL, y YEAR, b BIT(8), e ENUM('x','y','z'), s SET('a','b','c'), bl BLOB);
INSERT INTO sw VALUES (1, -5, 7, 9000000000, 12.345, 1.5, 2.25, 'ab', 'hello', 'text', '2020-02-03', '10:11:12', '10:11:12.345', '2020-02-03 10:11:12', '2020-02-03 10:11:12.123456', '2021-03-04 05:06:07', 2024, b'101', 'y', 'a,c', 'blob'),
 (2, 0, 0, 0, 0, 0, 0, '', '', '', '0000-00-00', '00:00:00', '00:00:00', '0000-00-00 00:00:00', '0000-00-00 00:00:00', NULL, 0, b'0', 'x', '', ''),
 (3, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
SQL
for server in "$OURS" "$MARIA"; do
	# shellcheck disable=SC2086
	mariadb $server --skip-ssl "$DB" < "$work/setup.sql"
done

cols="i u bi de f db c v tx d t t3 dt dt6 ts y b e s bl"
case ${SWEEP:-contexts} in
contexts) # the contexts a value meets: arithmetic, comparison, CAST, truth, aggregates
	exprs=('X + 0' 'X * 1' 'X - 1' '-X' 'CONCAT(X)' 'LENGTH(X)' 'X = 1' 'X = 0' 'X = 20200203'
		"X = '2020-02-03'" "X > 'a'" 'CAST(X AS SIGNED)' 'CAST(X AS UNSIGNED)' 'CAST(X AS DECIMAL(20,4))'
		'CAST(X AS CHAR)' 'CAST(X AS DATE)' 'CAST(X AS TIME)' 'CAST(X AS DATETIME)' 'CAST(X AS DOUBLE)'
		'X IS TRUE' 'NOT X' 'X AND 1' 'IF(X, 1, 2)' 'X DIV 2' 'X % 3' 'ROUND(X)' 'FLOOR(X)' 'ABS(X)' 'HEX(X)'
		'X + 0.5' 'COALESCE(X, 9)' 'GREATEST(X, 1)' 'LEAST(X, 1)' 'X / 2'
		'SUM(X)' 'AVG(X)' 'MAX(X)' 'MIN(X)' 'COUNT(DISTINCT X)' 'GROUP_CONCAT(X ORDER BY id)' 'BIT_OR(X)') ;;
functions) # the functions reports use, over every type
	exprs=('YEAR(X)' 'MONTH(X)' 'DAYOFWEEK(X)' 'WEEKDAY(X)' 'DAYNAME(X)' "DATE_FORMAT(X, '%Y/%m/%d %H:%i:%s %W %j %U')"
		"DATEDIFF(X, '2020-01-01')" "TIMESTAMPDIFF(DAY, '2020-01-01', X)" 'DATE_ADD(X, INTERVAL 1 DAY)' 'X + INTERVAL 1 MONTH'
		'UNIX_TIMESTAMP(X)' 'TO_DAYS(X)' 'WEEK(X)' 'LAST_DAY(X)' 'DATE(X)' 'TIME(X)' 'HOUR(X)' 'TIME_TO_SEC(X)' 'SEC_TO_TIME(X)'
		'LEFT(X, 3)' 'SUBSTRING(X, 2, 3)' "LPAD(X, 12, '*')" "REPLACE(X, '1', 'x')" 'UPPER(X)' 'TRIM(X)' "LOCATE('1', X)"
		'FORMAT(X, 2)' "CONCAT_WS('-', X, X)" 'QUOTE(X)' "FIND_IN_SET('c', X)" 'REVERSE(X)' 'CHAR_LENGTH(X)'
		'POW(X, 2)' 'SQRT(X)' 'MOD(X, 3)' 'LOG(X)' 'TRUNCATE(X, 1)' 'CEIL(X)' 'SIGN(X)' 'CONV(X, 10, 2)' 'BIN(X)'
		'CONVERT(X, CHAR)' 'X BETWEEN 1 AND 3' "X IN (1, 'a', '2020-02-03')" "X LIKE '%1%'" 'ISNULL(X)' 'NULLIF(X, 0)'
		'CASE WHEN X THEN 1 ELSE 0 END' 'IFNULL(X, 0)' 'X <=> 0' 'MD5(X)' 'CRC32(X)') ;;
*) echo "SWEEP is contexts or functions" >&2; exit 2 ;;
esac
for c in $cols; do
	for e in "${exprs[@]}"; do
		x=${e//X/$c}
		case $e in
		SUM* | AVG* | MAX* | MIN* | COUNT* | GROUP* | BIT_OR*) echo "SELECT $x FROM sw;" ;;
		*) echo "SELECT id, $x FROM sw ORDER BY id;" ;;
		esac
	done
done > "$work/q.sql"

answers() {
	while IFS= read -r q; do
		echo "## $q"
		# shellcheck disable=SC2086
		mariadb $1 --skip-ssl -N -B "$DB" -e "$q" 2>&1 | sed -e 's/ at line 1//' -e '/^-----/d' -e '/^$/d' | grep -vxF -e "${q%;}" || true
	done < "$work/q.sql"
}
answers "$OURS" > "$work/ours.out"
answers "$MARIA" > "$work/maria.out"
python3 - "$work/ours.out" "$work/maria.out" <<'PY'
import sys
def blocks(path):
    out, cur = {}, None
    for line in open(path):
        if line.startswith('## '):
            cur = line[3:].strip(); out[cur] = []
        else:
            out[cur].append(line.rstrip('\n'))
    return out
ours, maria = blocks(sys.argv[1]), blocks(sys.argv[2])
differ = [q for q in ours if ours[q] != maria.get(q)]
for q in differ:
    print('##', q)
    print('   HandlerDB:', ' | '.join(ours[q][:4]))
    print('   MariaDB:  ', ' | '.join(maria[q][:4]))
print(f'{len(ours)} statements, {len(differ)} answers differ')
PY
