// Package typevectors reads the conversion vectors recorded from MariaDB
// 10.11 (internal/types/testdata/typevectors, see its README.md), for the
// tests of packages other than types: each conv file's CREATE TABLE, the
// inputs sent and what MariaDB's HandlerSocket printed of them. The
// functions only read files and are safe for concurrent use.
package typevectors

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/handlerdb/handlerdb/internal/conformance"
)

// Conv is one conv/<type>.tsv file.
type Conv struct {
	Name   string    // the file's name without .tsv
	Create string    // its "# create:" line: CREATE TABLE tv.conv_<type> ... ENGINE=InnoDB
	Inputs []*string // the input column (nil: NULL)
	HS     []*string // the hs_value column: what HandlerSocket printed of the stored value
}

// Dir is the vectors' directory in the source tree.
func Dir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "types", "testdata", "typevectors")
}

// Convs reads every conv file but null-and-omitted.tsv (whose rows are
// not single inputs), in name order.
func Convs() ([]Conv, error) {
	files, err := filepath.Glob(filepath.Join(Dir(), "conv", "*.tsv"))
	if err == nil && len(files) == 0 {
		err = fmt.Errorf("typevectors: no conv files in %s", Dir())
	}
	if err != nil {
		return nil, err
	}
	var out []Conv
	for _, f := range files {
		if strings.HasSuffix(f, "null-and-omitted.tsv") {
			continue
		}
		c, err := readConv(f)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

func readConv(path string) (Conv, error) {
	fh, err := os.Open(path)
	if err != nil {
		return Conv{}, err
	}
	defer fh.Close()
	c := Conv{Name: strings.TrimSuffix(filepath.Base(path), ".tsv")}
	sc := bufio.NewScanner(fh)
	sc.Buffer(nil, 1<<20)
	header := true
	for sc.Scan() {
		line := sc.Text()
		if s, ok := strings.CutPrefix(line, "# create: "); ok {
			c.Create = s
			continue
		}
		if strings.HasPrefix(line, "#") {
			continue
		}
		if header {
			header = false
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) < 3 {
			return Conv{}, fmt.Errorf("typevectors: %s: a line of %d fields", path, len(f))
		}
		in, err := Field(f[0])
		if err != nil {
			return Conv{}, fmt.Errorf("%s: %w", path, err)
		}
		hs, err := Field(f[2])
		if err != nil {
			return Conv{}, fmt.Errorf("%s: %w", path, err)
		}
		c.Inputs = append(c.Inputs, in)
		c.HS = append(c.HS, hs)
	}
	if err := sc.Err(); err != nil {
		return Conv{}, err
	}
	if c.Create == "" {
		return Conv{}, fmt.Errorf("typevectors: %s: no create line", path)
	}
	return c, nil
}

// Field decodes a field of the vectors' notation: \N (NULL) and \- (left
// out) are nil; the rest is conformance.Unescape's byte notation.
func Field(f string) (*string, error) {
	if f == `\N` || f == `\-` {
		return nil, nil
	}
	b, err := conformance.Unescape(f)
	if err != nil {
		return nil, fmt.Errorf("typevectors: %w", err)
	}
	s := string(b)
	return &s, nil
}
