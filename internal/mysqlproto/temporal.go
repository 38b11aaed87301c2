package mysqlproto

import (
	"encoding/binary"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// datetime is a DATE, DATETIME or TIMESTAMP as the binary protocol
// carries it.
type datetime struct {
	year                       uint16
	month, day, hour, min, sec uint8
	micro                      uint32
}

// appendBinary appends the value in MariaDB's shortest form: 0 bytes for
// the zero date, 4 for a date, 7 with a time, 11 with microseconds.
func (d datetime) appendBinary(b []byte) []byte {
	switch {
	case d.micro != 0:
		b = append(b, 11)
	case d.hour != 0 || d.min != 0 || d.sec != 0:
		b = append(b, 7)
	case d.year != 0 || d.month != 0 || d.day != 0:
		b = append(b, 4)
	default:
		return append(b, 0)
	}
	n := b[len(b)-1]
	b = binary.LittleEndian.AppendUint16(b, d.year)
	b = append(b, d.month, d.day)
	if n >= 7 {
		b = append(b, d.hour, d.min, d.sec)
	}
	if n == 11 {
		b = binary.LittleEndian.AppendUint32(b, d.micro)
	}
	return b
}

// digits reads the decimal number of b[i:j], which must be all digits.
func digits(b []byte, i, j int) (uint32, bool) {
	var n uint32
	for ; i < j; i++ {
		c := b[i] - '0'
		if c > 9 {
			return 0, false
		}
		n = n*10 + uint32(c)
	}
	return n, true
}

// micros reads a fraction's 1 to 6 digits (after the point) as
// microseconds.
func micros(f []byte) (uint32, bool) {
	n, ok := digits(f, 0, len(f))
	for i := len(f); i < 6; i++ {
		n *= 10
	}
	return n, ok
}

// quickDatetime reads the form go-mysql-server prints,
// "YYYY-MM-DD[ HH:MM:SS[.f...]]", without allocating; ok is false for
// any other form.
func quickDatetime(s []byte) (d datetime, ok bool) {
	if len(s) != 10 && len(s) != 19 && (len(s) < 21 || len(s) > 26 || s[19] != '.') {
		return d, false
	}
	if s[4] != '-' || s[7] != '-' {
		return d, false
	}
	y, ok1 := digits(s, 0, 4)
	m, ok2 := digits(s, 5, 7)
	dd, ok3 := digits(s, 8, 10)
	if !ok1 || !ok2 || !ok3 {
		return d, false
	}
	d.year, d.month, d.day = uint16(y), uint8(m), uint8(dd)
	if len(s) == 10 {
		return d, true
	}
	if s[10] != ' ' || s[13] != ':' || s[16] != ':' {
		return d, false
	}
	h, ok1 := digits(s, 11, 13)
	mi, ok2 := digits(s, 14, 16)
	se, ok3 := digits(s, 17, 19)
	if !ok1 || !ok2 || !ok3 {
		return d, false
	}
	d.hour, d.min, d.sec = uint8(h), uint8(mi), uint8(se)
	if len(s) > 19 {
		f, ok := micros(s[20:])
		if !ok {
			return d, false
		}
		d.micro = f
	}
	return d, true
}

// parseDatetime reads "YYYY-MM-DD[ HH:MM:SS[.ffffff]]".
func parseDatetime(s []byte) (datetime, error) {
	if d, ok := quickDatetime(s); ok {
		return d, nil
	}
	return slowDatetime(s)
}

// slowDatetime is parseDatetime for any spacing of its numbers.
func slowDatetime(s []byte) (datetime, error) {
	var d datetime
	date, clock, _ := strings.Cut(string(s), " ")
	parts := strings.Split(date, "-")
	if len(parts) != 3 {
		return d, errors.New("not a date")
	}
	y, err1 := strconv.ParseUint(parts[0], 10, 16)
	m, err2 := strconv.ParseUint(parts[1], 10, 8)
	dd, err3 := strconv.ParseUint(parts[2], 10, 8)
	if err := errors.Join(err1, err2, err3); err != nil {
		return d, err
	}
	d.year, d.month, d.day = uint16(y), uint8(m), uint8(dd)
	if clock == "" {
		return d, nil
	}
	t, err := parseTime([]byte(clock))
	if err != nil {
		return d, err
	}
	if t.neg || t.days != 0 {
		return d, fmt.Errorf("hour %d out of range", t.days*24+uint32(t.hour))
	}
	d.hour, d.min, d.sec, d.micro = t.hour, t.min, t.sec, t.micro
	return d, nil
}

// span is a TIME as the binary protocol carries it.
type span struct {
	neg            bool
	days           uint32
	hour, min, sec uint8
	micro          uint32
}

// appendBinary appends the value: 0 bytes for zero, 8 without
// microseconds, 12 with.
func (t span) appendBinary(b []byte) []byte {
	switch {
	case t.micro != 0:
		b = append(b, 12)
	case t.days != 0 || t.hour != 0 || t.min != 0 || t.sec != 0:
		b = append(b, 8)
	default:
		return append(b, 0)
	}
	n := b[len(b)-1]
	neg := byte(0)
	if t.neg {
		neg = 1
	}
	b = append(b, neg)
	b = binary.LittleEndian.AppendUint32(b, t.days)
	b = append(b, t.hour, t.min, t.sec)
	if n == 12 {
		b = binary.LittleEndian.AppendUint32(b, t.micro)
	}
	return b
}

// quickTime reads "[-]H+:MM:SS[.f...]" without allocating; ok is false
// for any other form.
func quickTime(s []byte) (t span, ok bool) {
	if len(s) > 0 && s[0] == '-' {
		t.neg, s = true, s[1:]
	}
	c := 0
	for c < len(s) && s[c] != ':' {
		c++
	}
	if c == 0 || c > 9 || len(s) < c+6 || s[c+3] != ':' {
		return t, false
	}
	h, ok1 := digits(s, 0, c)
	m, ok2 := digits(s, c+1, c+3)
	sec, ok3 := digits(s, c+4, c+6)
	if !ok1 || !ok2 || !ok3 {
		return t, false
	}
	t.days, t.hour, t.min, t.sec = h/24, uint8(h%24), uint8(m), uint8(sec)
	if rest := s[c+6:]; len(rest) > 0 {
		if rest[0] != '.' || len(rest) < 2 || len(rest) > 7 {
			return t, false
		}
		f, ok := micros(rest[1:])
		if !ok {
			return t, false
		}
		t.micro = f
	}
	return t, true
}

// parseTime reads "[-]H+:MM:SS[.ffffff]".
func parseTime(s []byte) (span, error) {
	if t, ok := quickTime(s); ok {
		return t, nil
	}
	return slowTime(s)
}

// slowTime is parseTime for any spacing of its numbers.
func slowTime(s []byte) (span, error) {
	var t span
	str := string(s)
	if strings.HasPrefix(str, "-") {
		t.neg, str = true, str[1:]
	}
	str, frac, hasFrac := strings.Cut(str, ".")
	parts := strings.Split(str, ":")
	if len(parts) != 3 {
		return t, errors.New("not a time")
	}
	h, err1 := strconv.ParseUint(parts[0], 10, 32)
	m, err2 := strconv.ParseUint(parts[1], 10, 8)
	sec, err3 := strconv.ParseUint(parts[2], 10, 8)
	if err := errors.Join(err1, err2, err3); err != nil {
		return t, err
	}
	t.days, t.hour, t.min, t.sec = uint32(h/24), uint8(h%24), uint8(m), uint8(sec)
	if hasFrac {
		if len(frac) == 0 || len(frac) > 6 {
			return t, errors.New("bad fraction")
		}
		us, err := strconv.ParseUint(frac+strings.Repeat("0", 6-len(frac)), 10, 32)
		if err != nil {
			return t, err
		}
		t.micro = uint32(us)
	}
	return t, nil
}
