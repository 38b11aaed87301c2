package server

import (
	"encoding/hex"
	"strings"
	"testing"
)

// hsEscape is HandlerSocket's encoding of a field: bytes below 0x10 as
// 0x01 followed by the byte plus 0x40.
func hsEscape(b []byte) string {
	var s strings.Builder
	for _, c := range b {
		if c < 0x10 {
			s.WriteByte(0x01)
			c += 0x40
		}
		s.WriteByte(c)
	}
	return s.String()
}

// Over HandlerSocket a geometry column reads and writes its stored bytes
// (MySQL's internal format, SRID + WKB), as the plugin does with MariaDB's
// geometry fields: a valid value is stored as given, anything else as the
// empty string. The bytes below are MariaDB's for the same values (SRID
// 4326 too, whose coordinates MariaDB keeps in the order written).
func TestHSGeometryBytes(t *testing.T) {
	s := startTest(t, nil)
	db := sqlDB(t, s, "geo")
	execAll(t, db,
		"CREATE TABLE h (id INT PRIMARY KEY, g GEOMETRY, p POINT NOT NULL, SPATIAL KEY (p))",
		"INSERT INTO h VALUES (1, POINT(1, 2), POINT(3, 4)), (2, NULL, ST_GeomFromText('POINT(5 6)', 4326))",
	)
	unhex := func(h string) []byte {
		b, err := hex.DecodeString(h)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	p12 := unhex("000000000101000000000000000000F03F0000000000000040")
	p34 := unhex("00000000010100000000000000000008400000000000001040")
	p56 := unhex("E6100000010100000000000000000014400000000000001840")
	got := hsExchange(t, s.HS().ReadAddr(), "P\t0\tgeo\th\tPRIMARY\tid,g,p\n0\t>=\t1\t0\t10\n", 2)
	want := "0\t3\t1\t" + hsEscape(p12) + "\t" + hsEscape(p34) + "\t2\t\x00\t" + hsEscape(p56) + "\n"
	if got[1] != want {
		t.Errorf("find: %q, want %q", got[1], want)
	}
	got = hsExchange(t, s.HS().WriteAddr(), "P\t0\tgeo\th\tPRIMARY\tid,g,p\n"+
		"0\t+\t3\t3\t"+hsEscape(p56)+"\t"+hsEscape(p12)+"\n"+
		"0\t+\t3\t4\tjunk\tabc\n", 3)
	if got[1] != "0\t1\n" || got[2] != "0\t1\n" {
		t.Fatalf("inserts: %q", got)
	}
	rows, err := db.Query("SELECT id, ST_AsText(g), HEX(p), ST_SRID(g) FROM h WHERE id = 3")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var id, g, p, srid []byte
		if err := rows.Scan(&id, &g, &p, &srid); err != nil {
			t.Fatal(err)
		}
		out = append(out, string(id)+" "+string(g)+" "+string(p)+" "+string(srid))
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	wantRows := []string{"3 POINT(5 6) 000000000101000000000000000000F03F0000000000000040 4326"}
	if len(out) < 1 || out[0] != wantRows[0] {
		t.Errorf("rows written over HandlerSocket: %q, want first %q", out, wantRows[0])
	}
	var n int
	if err := db.QueryRow("SELECT COUNT(*) FROM h WHERE id = 4 AND HEX(g) = '' AND HEX(p) = ''").Scan(&n); err != nil || n != 1 {
		t.Errorf("junk over HandlerSocket: %d rows stored as '' (%v)", n, err)
	}
}
