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

// parseDatetime reads "YYYY-MM-DD[ HH:MM:SS[.ffffff]]".
func parseDatetime(s []byte) (datetime, error) {
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

// parseTime reads "[-]H+:MM:SS[.ffffff]".
func parseTime(s []byte) (span, error) {
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
