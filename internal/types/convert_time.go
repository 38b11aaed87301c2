package types

// This file parses client text into dates, date-times and times with
// MySQL's (MariaDB 10.11's) non-strict rules, as HandlerSocket stores them.

// tmKind says what a temporal parse produced.
type tmKind uint8

const (
	tmNone     tmKind = iota // not a date at all (too few fields)
	tmError                  // looked like a date or time but was invalid
	tmDate                   // year, month and day
	tmDateTime               // date and time of day
	tmTime                   // a TIME value (hours may exceed 23)
)

// mtime is a parsed temporal value.
type mtime struct {
	kind                        tmKind
	neg                         bool
	year, month, day            uint64
	hour, minute, second, micro uint64
}

// Limits of the TIME type and of the parser's arithmetic.
const (
	timeMaxHour  = 838
	uint32Max    = 1<<32 - 1
	ddhhLimit    = 42949672955959 // UINT32_MAX hours, 59 minutes, 59 seconds
	numSaturate  = 1 << 40        // digit runs are capped here (always invalid)
	microsPerSec = 1000000
)

// PackDateTime packs a date-time into an int64 that sorts like the
// date-time itself, including partial zero dates such as 2020-00-00: the
// layout is ((((y*13+mo)<<5 | d)<<17 | h<<12 | mi<<6 | s)<<24) | us.
// Fields must be in range (y 0-9999, mo 0-12, d 0-31, h 0-23, mi and s
// 0-59, us 0-999999).
func PackDateTime(y, mo, d, h, mi, s, us int) int64 {
	ymd := int64(y*13+mo)<<5 | int64(d)
	hms := int64(h)<<12 | int64(mi)<<6 | int64(s)
	return (ymd<<17|hms)<<24 | int64(us)
}

// UnpackDateTime is the inverse of PackDateTime.
func UnpackDateTime(v int64) (y, mo, d, h, mi, s, us int) {
	us = int(v & (1<<24 - 1))
	v >>= 24
	s = int(v & 63)
	mi = int(v >> 6 & 63)
	h = int(v >> 12 & 31)
	v >>= 17
	d = int(v & 31)
	ym := int(v >> 5)
	return ym / 13, ym % 13, d, h, mi, s, us
}

// isPunct reports ASCII punctuation, the separators MySQL accepts in dates.
func isPunct(c byte) bool {
	return (c >= '!' && c <= '/') || (c >= ':' && c <= '@') ||
		(c >= '[' && c <= '`') || (c >= '{' && c <= '~')
}

// findBody strips leading spaces, a sign, more spaces, and trailing spaces
// and letters from s. ok is false when what is left does not start with a
// digit.
func findBody(s []byte) (body []byte, neg, ok bool) {
	i := 0
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	if i < len(s) && (s[i] == '-' || s[i] == '+') {
		neg = s[i] == '-'
		i++
	}
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	s = s[i:]
	n := len(s)
	for ; n > 0; n-- {
		c := s[n-1]
		if isDigit(c) || isPunct(c) {
			break
		}
		if c == 'T' && n >= 2 && isDigit(s[n-2]) {
			break
		}
	}
	s = s[:n]
	return s, neg, len(s) > 0 && isDigit(s[0])
}

// dtScanner walks a date-time body. A failed step sets bad and makes every
// later step a no-op, like a chain of || in C.
type dtScanner struct {
	s      []byte
	i      int
	fields int
	bad    bool
}

// number reads a run of at most max digits into *v (max 0: unlimited). At
// the end of input it reads nothing and succeeds; a non-digit fails.
func (p *dtScanner) number(v *uint64, max int) {
	if p.bad || p.i >= len(p.s) {
		return
	}
	if !isDigit(p.s[p.i]) {
		p.bad = true
		return
	}
	end := len(p.s)
	if max > 0 && p.i+max < end {
		end = p.i + max
	}
	var x uint64
	for p.i < end && isDigit(p.s[p.i]) {
		if x < numSaturate {
			x = x*10 + uint64(p.s[p.i]-'0')
		}
		p.i++
	}
	*v = x
	p.fields++
}

// punct skips one punctuation character (nothing at the end of input).
func (p *dtScanner) punct() {
	if p.bad || p.i >= len(p.s) {
		return
	}
	if isPunct(p.s[p.i]) {
		p.i++
		return
	}
	p.bad = true
}

// dateTimeSep skips the separator between date and time: 'T', spaces, or
// (when punctOK) one punctuation character. A punctuation character when
// !punctOK aborts the whole parse (fields reset to 0).
func (p *dtScanner) dateTimeSep(punctOK bool) {
	if p.bad || p.i >= len(p.s) {
		return
	}
	c := p.s[p.i]
	switch {
	case c == 'T':
		p.i++
	case isPunct(c):
		if !punctOK {
			p.fields = 0
			p.bad = true
			return
		}
		p.i++
	case isSpace(c):
		for p.i < len(p.s) && isSpace(p.s[p.i]) {
			p.i++
		}
	default:
		p.bad = true
	}
}

func (p *dtScanner) skipDigits() int {
	j := p.i
	for p.i < len(p.s) && isDigit(p.s[p.i]) {
		p.i++
	}
	return p.i - j
}

// micros reads a fraction of a second (the '.' already skipped): up to six
// digits, scaled to microseconds; further digits are dropped (truncation).
// Reading digits counts as a field.
func (p *dtScanner) micros() uint64 {
	var v uint64
	start := p.i
	p.bad = false
	p.number(&v, 6)
	if p.bad {
		v = 0
	}
	for k := p.i - start; k < 6; k++ {
		v *= 10
	}
	p.skipDigits()
	return v
}

// daysIn returns the number of days of a month (1-12) in a year.
func daysIn(year, month uint64) uint64 {
	switch month {
	case 2:
		if year%4 == 0 && (year%100 != 0 || (year%400 == 0 && year != 0)) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// parseDateTimeBody parses a date or date-time body (sign and surrounding
// junk already removed by findBody): purely numeric forms like YYYYMMDD,
// YYMMDDhhmmss and YYYYMMDDThhmmss.ffffff, or delimited forms like
// Y-M-D h:m:s.ffffff with any punctuation as separators. It also returns
// how many fields it read and where it stopped. With invalidOK a day
// past the end of its month (up to 31) is kept, as ALLOW_INVALID_DATES
// stores it.
func parseDateTimeBody(s []byte, punctSep, invalidOK bool) (t mtime, fields, end int) {
	p := dtScanner{s: s}
	digits := p.skipDigits()
	if p.i < len(s) && s[p.i] == 'T' {
		p.i++
		digits += p.skipDigits()
	}
	if p.i < len(s) && s[p.i] == '.' && digits >= 12 {
		p.i++
		p.skipDigits()
	}
	yearLen := 2
	if p.i == len(s) {
		// Only digits: the digit count decides the layout.
		if digits == 4 || digits == 8 || digits >= 14 {
			yearLen = 4
		}
		p.i = 0
		p.number(&t.year, yearLen)
		p.number(&t.month, 2)
		p.number(&t.day, 2)
		if !p.bad && p.i < len(s) && s[p.i] == 'T' {
			p.i++
		}
		p.number(&t.hour, 2)
		p.number(&t.minute, 2)
		p.number(&t.second, 2)
	} else {
		p.i = 0
		p.number(&t.year, 0)
		yearLen = p.i
		p.punct()
		p.number(&t.month, 0)
		p.punct()
		p.number(&t.day, 0)
		p.dateTimeSep(punctSep)
		p.number(&t.hour, 0)
		p.punct()
		p.number(&t.minute, 0)
		p.punct()
		p.number(&t.second, 0)
	}
	if p.fields < 3 {
		return mtime{kind: tmNone}, p.fields, p.i
	}
	if !p.bad && p.i < len(s) && s[p.i] == '.' {
		p.i++
		t.micro = p.micros()
	}
	nonZero := t.year|t.month|t.day|t.hour|t.minute|t.second|t.micro != 0
	if yearLen == 2 && nonZero {
		if t.year < 70 {
			t.year += 2000
		} else {
			t.year += 1900
		}
	}
	if t.year > 9999 || t.month > 12 || t.day > 31 || t.hour > 23 ||
		t.minute > 59 || t.second > 59 {
		return mtime{kind: tmError}, p.fields, p.i
	}
	if nonZero && !invalidOK && t.month != 0 && t.day > daysIn(t.year, t.month) {
		return mtime{kind: tmError}, p.fields, p.i
	}
	t.kind = tmDateTime
	if p.fields <= 3 {
		t.kind = tmDate
	}
	return t, p.fields, p.i
}

// parseDateTime parses text for a DATE, DATETIME or TIMESTAMP column.
// Anything that is not a valid date gives kind tmError or tmNone.
func parseDateTime(in []byte, invalidOK bool) mtime {
	body, neg, ok := findBody(in)
	if !ok {
		return mtime{kind: tmError}
	}
	t, _, _ := parseDateTimeBody(body, true, invalidOK)
	if neg && t.kind >= tmDate {
		return mtime{kind: tmError}
	}
	return t
}

// looksLikeDateTime reports whether a TIME input should first be tried as
// a date-time: long inputs, inputs with a 'T', and inputs where a space
// follows punctuation.
func looksLikeDateTime(s []byte) bool {
	if len(s) >= 12 {
		return true
	}
	if len(s) < 6 {
		return false
	}
	punct := 0
	for _, c := range s {
		if c == 'T' {
			return true
		}
		if c == ' ' {
			return punct > 0
		}
		if isPunct(c) {
			punct++
		}
	}
	return false
}

// colonsAndT counts ':' and 'T' in s.
func colonsAndT(s []byte) (colons, ts int) {
	for _, c := range s {
		switch c {
		case ':':
			colons++
		case 'T':
			ts++
		}
	}
	return colons, ts
}

// parseTime parses text for a TIME column: either a date-time (whose time
// of day is used) or [-][D ]hh:mm:ss[.ffffff], hh:mm, or a number
// [[h..]hmm]ss[.ffffff]. Hours above 838 clamp; other invalid input gives
// tmError.
func parseTime(in []byte) mtime {
	body, neg, ok := findBody(in)
	if !ok {
		return mtime{kind: tmError}
	}
	if looksLikeDateTime(body) {
		t, fields, end := parseDateTimeBody(body, false, false)
		switch t.kind {
		case tmDateTime:
			if neg {
				return mtime{kind: tmError}
			}
			return t
		case tmDate:
			if c, ts := colonsAndT(body[:end]); ts > 0 || c == 0 {
				if neg {
					return mtime{kind: tmError}
				}
				return t
			}
		case tmError:
			if fields > 3 {
				return t
			}
			if c, ts := colonsAndT(body[:end]); ts > 0 || c == 0 {
				return t
			}
		}
	}
	t := parseDDhhmmss(body)
	t.neg = neg && t.kind == tmTime
	return t
}

// parseDDhhmmss parses [D ]h:m:s[.f], h:m[.f] or a plain number read as
// hhmmss, with an optional fraction.
func parseDDhhmmss(s []byte) mtime {
	i := 0
	var v uint64
	for ; i < len(s) && isDigit(s[i]); i++ {
		v = v*10 + uint64(s[i]-'0')
		if v >= ddhhLimit {
			return mtime{kind: tmError}
		}
	}
	endOfDays := i
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	var date [5]uint64 // days, hours, minutes, seconds, micros
	state := 0
	switch {
	case len(s)-i > 1 && i != endOfDays && isDigit(s[i]):
		date[0] = v
		state = 1
	case len(s)-i > 1 && s[i] == ':' && isDigit(s[i+1]):
		if v >= uint32Max {
			return mtime{kind: tmError}
		}
		date[1] = v
		state = 2
		i++
	default:
		date[1] = v / 10000
		date[2] = v / 100 % 100
		date[3] = v % 100
		state = 4
	}
	if state < 4 {
		for {
			var x uint64
			for ; i < len(s) && isDigit(s[i]); i++ {
				if x < numSaturate {
					x = x*10 + uint64(s[i]-'0')
				}
			}
			date[state] = x
			state++
			if state == 4 || len(s)-i < 2 || s[i] != ':' || !isDigit(s[i+1]) {
				break
			}
			i++
		}
	}
	if i < len(s) && s[i] == '.' {
		p := dtScanner{s: s, i: i + 1}
		date[4] = p.micros()
		i = p.i
	}
	if len(s)-i > 1 && (s[i] == 'e' || s[i] == 'E') &&
		(isDigit(s[i+1]) || ((s[i+1] == '-' || s[i+1] == '+') && len(s)-i > 2 && isDigit(s[i+2]))) {
		return mtime{kind: tmError}
	}
	for _, x := range date {
		if x > uint32Max {
			return mtime{kind: tmError}
		}
	}
	hour := date[0]*24 + date[1]
	if hour > uint32Max || date[2] >= 60 || date[3] >= 60 {
		return mtime{kind: tmError}
	}
	t := mtime{kind: tmTime, hour: hour, minute: date[2], second: date[3], micro: date[4]}
	if hour > timeMaxHour {
		t.hour, t.minute, t.second, t.micro = timeMaxHour, 59, 59, 999999
	}
	return t
}

// truncMicro drops the fractional digits beyond scale.
func truncMicro(us uint64, scale uint8) uint64 {
	if scale >= 6 {
		return us
	}
	m := uint64(1)
	for i := scale; i < 6; i++ {
		m *= 10
	}
	return us - us%m
}

// Bounds of TIMESTAMP (UTC), packed.
var (
	timestampMin = PackDateTime(1970, 1, 1, 0, 0, 1, 0)
	timestampMax = PackDateTime(2038, 1, 19, 3, 14, 7, 999999)
)

// convertDate stores text into DATE, DATETIME or TIMESTAMP: invalid input
// gives the zero date, DATE drops the time, fractions are truncated to the
// scale, TIMESTAMP outside its range or with zero parts gives zero.
func convertDate(t *Type, in []byte) Value {
	v, _ := ConvertDate(t, in, false)
	return v
}

// ConvertDate stores text into a DATE, DATETIME or TIMESTAMP column as
// Convert does, and reports whether the text held a date at all (ok is
// false for text that gives the zero date only because it is none).
// With invalidOK a day past the end of its month (2021-02-30) is stored
// as written, as MariaDB does under ALLOW_INVALID_DATES.
func ConvertDate(t *Type, in []byte, invalidOK bool) (v Value, ok bool) {
	m := parseDateTime(in, invalidOK)
	if m.kind != tmDate && m.kind != tmDateTime {
		return Value{}, false
	}
	return storeDate(t, m), true
}

// ValidDate reports whether a packed date-time has a month and day that
// exist together (its month and day are not 0, and the day is within
// the month), or is the zero date.
func ValidDate(p int64) bool {
	y, mo, d, _, _, _, _ := UnpackDateTime(p)
	if p == 0 {
		return true
	}
	return mo != 0 && d != 0 && uint64(d) <= daysIn(uint64(y), uint64(mo))
}

// storeDate packs a parsed date or date-time into a DATE, DATETIME or
// TIMESTAMP value.
func storeDate(t *Type, m mtime) Value {
	if t.Kind == Date {
		return Value{I: PackDateTime(int(m.year), int(m.month), int(m.day), 0, 0, 0, 0)}
	}
	us := truncMicro(m.micro, t.Scale)
	v := PackDateTime(int(m.year), int(m.month), int(m.day), int(m.hour), int(m.minute), int(m.second), int(us))
	if t.Kind == Timestamp && v != 0 {
		if m.month == 0 || m.day == 0 || v < timestampMin || v > timestampMax {
			return Value{}
		}
	}
	return Value{I: v}
}

// convertTime stores text into a TIME column (signed microseconds).
func convertTime(t *Type, in []byte) Value {
	v, _ := ConvertTime(t, in)
	return v
}

// ConvertTime stores text into a TIME column as Convert does, and
// reports whether the text held a time at all.
func ConvertTime(t *Type, in []byte) (Value, bool) {
	m := parseTime(in)
	switch m.kind {
	case tmTime, tmDateTime:
	default:
		return Value{}, false
	}
	us := int64(m.hour)*3600*microsPerSec + int64(m.minute)*60*microsPerSec +
		int64(m.second)*microsPerSec + int64(truncMicro(m.micro, t.Scale))
	if m.neg {
		us = -us
	}
	return Value{I: us}, true
}
