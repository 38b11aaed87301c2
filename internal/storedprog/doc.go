// Package storedprog runs stored functions compiled: the body of a
// function is parsed once into a program of a few operations (set a
// variable, run a SELECT ... INTO, jump, return), its expressions are
// bound and analyzed once, and its SELECTs keep their analyzed plans as
// sqlbackend.PlanTemplates into which each call puts its variables'
// values, as prepared statements do. A call then costs the execution of
// its statements, not the parse and analysis of each, which is what
// running the function's hidden procedure through go-mysql-server's
// interpreter costs (sqlbackend's routines.go: a CALL per call, its body
// parsed, each statement bound and analyzed anew).
//
// A body compiles when it holds only what a function that reads data is
// made of: DECLARE of variables (with DEFAULT) and of one NOT FOUND
// handler in the outermost block, SET of local variables, SELECT ...
// INTO local variables, IF, WHILE, REPEAT, LOOP, LEAVE, ITERATE, nested
// BEGIN ... END and RETURN. Anything else (a write, a user or system
// variable, a cursor, CASE, SIGNAL, another handler) leaves the function
// to the interpreter, as does a body the parser does not read. So a
// compiled program has no effect but its answer and its warnings, and
// every call that the runner declines before it starts runs unchanged.
//
// The semantics are MariaDB's: a name that is a variable in scope is the
// variable, not a column (in every clause of a statement, subqueries
// included); the arguments and every assignment are converted to the
// variable's declared type (out of range or truncated: error 1264/1265 in
// strict mode, else the value clipped with a warning); SELECT ... INTO
// that finds no row leaves the variables as they were and raises NOT
// FOUND (the handler's, or nothing), more than one row is error 1172; the
// statements run in the function's database; a function that ends
// without RETURN is error 1321.
//
// Concurrency: a Runner is shared by all sessions; the programs it
// compiles belong to one session each (kept in sqlbackend.Session's
// Programs), run on that session's goroutine, and are never run inside
// themselves (MariaDB refuses recursion, and sqlbackend checks it before
// a call).
package storedprog
