package hsproto

// AppendOK appends "0\t1\n", the reply to a successful P or A, and to an
// insert into a table without an AUTO_INCREMENT column.
func AppendOK(dst []byte) []byte {
	return append(dst, "0\t1\n"...)
}

// AppendOKNum appends "0\t1\t<n>\n": the number of rows a modify without
// '?' changed, or the id an insert generated. The plugin writes row counts
// as 32-bit values (pass uint64(uint32(count)) to match it for more than
// 4294967295 rows) and insert ids as 64-bit ones.
func AppendOKNum(dst []byte, n uint64) []byte {
	dst = append(dst, "0\t1\t"...)
	dst = AppendUint(dst, n)
	return append(dst, '\n')
}

// AppendError appends "<code>\t1\t<word>\n" for e, or "0\t1\n" for ErrNone.
func AppendError(dst []byte, e Error) []byte {
	return append(dst, errorInfo[e].line...)
}

// AppendHandlerError appends "1\t1\t<errno>\n", the reply to a storage
// error (errno is the MySQL handler error number, e.g. 121 for a duplicate
// key).
func AppendHandlerError(dst []byte, errno uint32) []byte {
	dst = append(dst, "1\t1\t"...)
	dst = AppendUint(dst, uint64(errno))
	return append(dst, '\n')
}

// AppendResultHeader appends "0\t<ncols>", the start of a find reply (and
// of a modify with '?'). ncols is the number of columns named by P. Follow
// it with ncols AppendField calls per row, then AppendEnd; no rows is just
// the header and the LF:
//
//	mark := len(out)
//	out = AppendResultHeader(out, len(columns))
//	for each row, for each column: out = AppendField(out, v)
//	out = AppendEnd(out)
//
// When the scan fails part way the plugin drops the rows and answers only
// the error: out = AppendHandlerError(out[:mark], errno).
func AppendResultHeader(dst []byte, ncols int) []byte {
	dst = append(dst, '0', '\t')
	return AppendUint(dst, uint64(ncols))
}

// AppendEnd appends the LF that ends every response line.
func AppendEnd(dst []byte) []byte {
	return append(dst, '\n')
}
