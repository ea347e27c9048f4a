package ofx

import (
	"errors"
	"strconv"
	"strings"
	"sync"
	"time"
)

// SaoPaulo is the zone of a date written without one.
var SaoPaulo = mustLoad("America/Sao_Paulo")

func mustLoad(name string) *time.Location {
	loc, err := time.LoadLocation(name)
	if err != nil {
		panic("ofx: " + err.Error())
	}
	return loc
}

var errTime = errors.New("invalid OFX date")

// ParseTime reads an OFX date: YYYYMMDD, YYYYMMDDHHMM, YYYYMMDDHHMMSS or YYYYMMDDHHMMSS.XXX,
// optionally followed by a zone [-3:BRT], [-03], [+5.30:IST], [0:GMT]. Day is the calendar day as
// written. Without a zone the time is America/Sao_Paulo's.
func ParseTime(s string) (Time, error) {
	s = strings.TrimSpace(s)
	var zone string
	if i := strings.IndexByte(s, '['); i >= 0 {
		if !strings.HasSuffix(s, "]") {
			return Time{}, errTime
		}
		s, zone = strings.TrimSpace(s[:i]), s[i+1:len(s)-1]
	}
	if i := strings.IndexByte(s, '.'); i >= 0 {
		frac := s[i+1:]
		if i != 14 || frac == "" || len(frac) > 9 || !digits(frac) {
			return Time{}, errTime
		}
		s = s[:i]
	}
	if !digits(s) || (len(s) != 8 && len(s) != 12 && len(s) != 14) {
		return Time{}, errTime
	}
	num := func(a, b int) int {
		if b > len(s) {
			return 0
		}
		n, _ := strconv.Atoi(s[a:b])
		return n
	}
	y, mo, d, h, mi, sec := num(0, 4), num(4, 6), num(6, 8), num(8, 10), num(10, 12), num(12, 14)
	if y < 1900 || mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || sec > 59 {
		return Time{}, errTime
	}
	if check := time.Date(y, time.Month(mo), d, 0, 0, 0, 0, time.UTC); check.Day() != d {
		return Time{}, errTime // 31 of a 30-day month, 29/02 of a common year
	}
	loc := SaoPaulo
	if zone != "" {
		off, err := parseOffset(zone)
		if err != nil {
			return Time{}, err
		}
		loc = fixedZone(zoneName(zone, off), off)
	}
	t := Time{Day: s[0:4] + "-" + s[4:6] + "-" + s[6:8]}
	if len(s) > 8 {
		t.HasTime = true
		t.Instant = time.Date(y, time.Month(mo), d, h, mi, sec, 0, loc)
	}
	return t, nil
}

// parseOffset reads the "-3", "-03", "+5.30", "5.5", "0" before an optional ":NAME" into seconds.
func parseOffset(zone string) (int, error) {
	off, _, _ := strings.Cut(zone, ":")
	off = strings.TrimSpace(off)
	sign := 1
	switch {
	case strings.HasPrefix(off, "-"):
		sign, off = -1, off[1:]
	case strings.HasPrefix(off, "+"):
		off = off[1:]
	}
	hours, frac, _ := strings.Cut(off, ".")
	if hours == "" || len(hours) > 2 || !digits(hours) || (frac != "" && (len(frac) > 2 || !digits(frac))) {
		return 0, errTime
	}
	h, _ := strconv.Atoi(hours)
	minutes := 0
	switch len(frac) {
	case 1: // tenths of an hour: 5.5 is 5:30
		n, _ := strconv.Atoi(frac)
		minutes = n * 6
	case 2: // minutes when it can be (5.30 is 5:30), else hundredths (5.75 is 5:45)
		n, _ := strconv.Atoi(frac)
		if n < 60 {
			minutes = n
		} else {
			minutes = n * 60 / 100
		}
	}
	if h > 14 {
		return 0, errTime
	}
	return sign * (h*3600 + minutes*60), nil
}

// zones are the fixed zones read so far: a statement names the same one on every line, and a
// location per transaction was a tenth of a large import's memory.
var zones = struct {
	sync.Mutex
	m map[zoneKey]*time.Location
}{m: map[zoneKey]*time.Location{}}

type zoneKey struct {
	name string
	off  int
}

// maxZones bounds the cache: a file may name any number of zones.
const maxZones = 256

func fixedZone(name string, off int) *time.Location {
	k := zoneKey{name, off}
	zones.Lock()
	defer zones.Unlock()
	if loc, ok := zones.m[k]; ok {
		return loc
	}
	name = strings.Clone(name) // not a slice of the whole file, which the cache would keep
	loc := time.FixedZone(name, off)
	if len(zones.m) < maxZones {
		zones.m[zoneKey{name, off}] = loc
	}
	return loc
}

func zoneName(zone string, off int) string {
	if _, name, ok := strings.Cut(zone, ":"); ok && name != "" {
		return name
	}
	return time.FixedZone("", off).String()
}

func digits(s string) bool {
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return s != ""
}

// addDays moves a YYYY-MM-DD day by n days.
func addDays(day string, n int) string {
	t, err := time.Parse(time.DateOnly, day)
	if err != nil {
		return day
	}
	return t.AddDate(0, 0, n).Format(time.DateOnly)
}
