// Package types holds HandlerDB's column types and what MySQL does with
// values of them: conversion of client text into a column's stored value
// (MySQL's non-strict Field::store rules, as HandlerSocket applies them),
// printing a stored value the way MySQL prints it, comparison by type and
// collation, and an order-preserving key encoding whose byte order equals
// MySQL's comparison order.
//
// The package is a leaf: it knows no storage and no protocol. Every function
// is pure and safe for concurrent use; a Type is immutable once built.
package types

import "github.com/handlerdb/handlerdb/internal/collation"

// Kind is the SQL type family of a column.
type Kind uint8

// The column kinds. The comment gives the Value field that holds the value.
const (
	KindInvalid Kind = iota
	TinyInt          // I (int64, or uint64 bits when Unsigned)
	SmallInt         // I
	MediumInt        // I
	Int              // I
	BigInt           // I
	Decimal          // B: canonical text, e.g. "-12.300" (always Scale decimals, no "-0")
	Float            // F (a float32 value held in a float64)
	Double           // F
	Bit              // I (uint64 bits; Length = number of bits)
	Date             // I: packed date-time, see PackDateTime
	DateTime         // I: packed date-time (Scale = fractional digits)
	Timestamp        // I: packed date-time in UTC (Scale = fractional digits)
	Time             // I: signed microseconds (Scale = fractional digits)
	Year             // I: 0 or 1901..2155
	Char             // B: stored without trailing pad spaces
	VarChar          // B
	Text             // B (TINYTEXT..LONGTEXT by Length: 255, 65535, 16777215, 4294967295)
	Binary           // B: always exactly Length bytes, padded with 0x00
	VarBinary        // B
	Blob             // B (TINYBLOB..LONGBLOB by Length, as Text)
	Enum             // I: 1-based member index, 0 = the error value ''
	Set              // I: bit mask of members, bit 0 = first member
	Geometry         // B: SRID + WKB (Scale = geometry kind, Length = SRID+1 or 0; geometry.go)
)

// Type is a column's type: its kind and the parameters MySQL gives it.
type Type struct {
	Kind     Kind
	Unsigned bool
	// Length is CHAR/VARCHAR length in characters, BINARY/VARBINARY length
	// in bytes, TEXT/BLOB maximum bytes, BIT width in bits, DECIMAL
	// precision, FLOAT(M,D)/DOUBLE(M,D) M (0 = plain FLOAT/DOUBLE).
	Length uint32
	// Scale is DECIMAL scale, FLOAT(M,D) D, or fractional-second digits of
	// DATETIME/TIMESTAMP/TIME.
	Scale uint8
	// Elems are the ENUM or SET members in definition order.
	Elems []string
	// Collation orders and compares CHAR/VARCHAR/TEXT values (and ENUM/SET
	// names). Nil for every other kind; binary kinds compare bytes.
	Collation *collation.Collation
}

// Class says which field of a Value holds a kind's value.
type Class uint8

// Storage classes.
const (
	ClassInt   Class = iota // Value.I
	ClassFloat              // Value.F
	ClassBytes              // Value.B
)

// Class reports which Value field holds values of t.
func (t *Type) Class() Class {
	switch t.Kind {
	case Float, Double:
		return ClassFloat
	case Decimal, Char, VarChar, Text, Binary, VarBinary, Blob, Geometry:
		return ClassBytes
	default:
		return ClassInt
	}
}

// IsString reports whether t is a character type with a collation.
func (t *Type) IsString() bool {
	return t.Kind == Char || t.Kind == VarChar || t.Kind == Text
}

// IsBlob reports whether t is a TEXT, BLOB or geometry type (HandlerSocket
// refuses non-NULL filters on them; MySQL's geometry field is a BLOB).
func (t *Type) IsBlob() bool { return t.Kind == Text || t.Kind == Blob || t.Kind == Geometry }

// IsInteger reports whether t is one of the integer kinds.
func (t *Type) IsInteger() bool { return t.Kind >= TinyInt && t.Kind <= BigInt }

// Value is one stored column value. Which field is meaningful depends on
// the column's Type (see Kind and Class); the others are zero. A Value does
// not own B unless the function that returned it says so.
type Value struct {
	Null bool
	I    int64
	F    float64
	B    []byte
}

// NullValue is the SQL NULL.
var NullValue = Value{Null: true}

// Column is a column as the catalog holds it: name, type, nullability,
// default and AUTO_INCREMENT.
type Column struct {
	Name     string
	Type     Type
	Nullable bool
	// Default is the declared DEFAULT value, already converted to Type;
	// nil when the column has no DEFAULT clause or DEFAULT NULL.
	Default *Value
	// DefaultCurrentTimestamp is DEFAULT CURRENT_TIMESTAMP (SQL applies it;
	// HandlerSocket inserts do not).
	DefaultCurrentTimestamp bool
	AutoIncrement           bool
}
