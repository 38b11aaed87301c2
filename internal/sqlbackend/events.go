package sqlbackend

import (
	"regexp"
	"strings"
	"time"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/vitess/go/mysql"

	"github.com/handlerdb/handlerdb/internal/errtable"
)

// Events (CREATE EVENT) are kept with the database's other SQL objects
// (objects.go): CREATE, ALTER and DROP EVENT, SHOW EVENTS, SHOW CREATE
// EVENT and information_schema.EVENTS read and write them, and
// mariadb-dump --events dumps them. No event runs: the server has no
// event scheduler, so @@event_scheduler is DISABLED and SET GLOBAL
// event_scheduler is refused with 1290, as a MariaDB started with
// --event-scheduler=DISABLED answers (mariadb/sysvars.go); CREATE EVENT
// warns as MariaDB does while its scheduler is off. Times are stored as
// go-mysql-server hands them over (UTC).

// schedulerOff is MariaDB's warning after CREATE EVENT while the
// scheduler is not running (ER_UNKNOWN_ERROR's number).
const schedulerOff = "Event scheduler is switched off, use SET GLOBAL event_scheduler=ON to enable it."

// createEventIfNotExists recognises CREATE [DEFINER=...] EVENT IF NOT
// EXISTS.
var createEventIfNotExists = regexp.MustCompile(`(?is)^\s*CREATE\b.*?\bEVENT\s+IF\s+NOT\s+EXISTS\b`)

var _ sql.EventDatabase = (*database)(nil)

// GetEvent returns the named event.
func (d *database) GetEvent(ctx *sql.Context, name string) (sql.EventDefinition, bool, error) {
	o, err := d.objects()
	if err != nil {
		return sql.EventDefinition{}, false, err
	}
	for _, ev := range o.Events {
		if strings.EqualFold(ev.Name, name) {
			return ev, true, nil
		}
	}
	return sql.EventDefinition{}, false, nil
}

// GetEvents returns the database's events; no token, since events change
// only through this database.
func (d *database) GetEvents(ctx *sql.Context) ([]sql.EventDefinition, interface{}, error) {
	o, err := d.objects()
	if err != nil {
		return nil, nil, err
	}
	return append([]sql.EventDefinition(nil), o.Events...), nil, nil
}

// SaveEvent stores a new event; it reports whether the event is enabled.
func (d *database) SaveEvent(ctx *sql.Context, ed sql.EventDefinition) (bool, error) {
	if err := checkName(ctx, nameRoutine, ed.Name); err != nil {
		return false, err
	}
	err := d.editObjects(ctx, func(o *dbObjects) error {
		for _, ev := range o.Events {
			if strings.EqualFold(ev.Name, ed.Name) {
				e := sql.ErrEventAlreadyExists.New(ed.Name)
				if createEventIfNotExists.MatchString(ctx.Query()) {
					// IF NOT EXISTS: MariaDB's note, then its warning
					// below (go-mysql-server would add the note after it)
					ctx.Session.Warn(&sql.Warning{Level: "Note", Code: errtable.EREventAlreadyExists, Message: e.Error()})
					return errNothingToDo
				}
				return e
			}
		}
		o.Events = append(o.Events, ed)
		return nil
	})
	if err != nil {
		return false, err
	}
	ctx.Session.Warn(&sql.Warning{Level: "Warning", Code: mysql.ERUnknownError, Message: schedulerOff})
	return eventEnabled(ed), nil
}

// DropEvent removes the named event.
func (d *database) DropEvent(ctx *sql.Context, name string) error {
	return d.editObjects(ctx, func(o *dbObjects) error {
		for i, ev := range o.Events {
			if strings.EqualFold(ev.Name, name) {
				o.Events = append(o.Events[:i], o.Events[i+1:]...)
				return nil
			}
		}
		return sql.ErrEventDoesNotExist.New(name)
	})
}

// UpdateEvent replaces the event originalName by ed (ALTER EVENT, which
// may rename it); it reports whether the event is enabled.
func (d *database) UpdateEvent(ctx *sql.Context, originalName string, ed sql.EventDefinition) (bool, error) {
	if err := checkName(ctx, nameRoutine, ed.Name); err != nil {
		return false, err
	}
	err := d.editObjects(ctx, func(o *dbObjects) error {
		at := -1
		for i, ev := range o.Events {
			switch {
			case strings.EqualFold(ev.Name, originalName):
				at = i
			case strings.EqualFold(ev.Name, ed.Name):
				return sql.ErrEventAlreadyExists.New(ed.Name)
			}
		}
		if at < 0 {
			return sql.ErrEventDoesNotExist.New(originalName)
		}
		o.Events[at] = ed
		return nil
	})
	return err == nil && eventEnabled(ed), err
}

// UpdateLastExecuted records when the event last ran.
func (d *database) UpdateLastExecuted(ctx *sql.Context, eventName string, lastExecuted time.Time) error {
	return d.editObjects(ctx, func(o *dbObjects) error {
		for i, ev := range o.Events {
			if strings.EqualFold(ev.Name, eventName) {
				o.Events[i].LastExecuted = lastExecuted
				return nil
			}
		}
		return sql.ErrEventDoesNotExist.New(eventName)
	})
}

// NeedsToReloadEvents: events change only through this database.
func (d *database) NeedsToReloadEvents(ctx *sql.Context, token interface{}) (bool, error) {
	return false, nil
}

// eventEnabled reports whether an event's status is ENABLED.
func eventEnabled(ed sql.EventDefinition) bool {
	return strings.EqualFold(ed.Status, sql.EventStatus_Enable.String())
}
