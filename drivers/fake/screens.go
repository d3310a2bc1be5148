package fake

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/adtest/adtest/drivers"
)

// Screens is a parsed screens file: named screens and the open table.
type Screens struct {
	// Screens by name, in declaration order in Order.
	Screens map[string]*Screen
	Order   []string
	// Opens maps an open target (app id or URL) to a screen name; "*" is the default.
	Opens map[string]string
	// Faults are the fail/hang directives of the file.
	Faults []Fault
	// Viewport of the device (default 390x844).
	Viewport drivers.Rect
}

// Screen is one named screen.
type Screen struct {
	Name  string
	Title string
	Roots []*Element
	Line  int
}

// Element is one declared element.
type Element struct {
	Role     string
	Label    string
	ID       string
	Text     string
	Value    string
	Rect     *drivers.Rect
	Hidden   bool
	Editable bool
	Selected bool
	Focused  bool
	Disabled bool
	// Interactive overrides the role default when set.
	Interactive *bool
	// After makes the element appear only this long after its screen was shown.
	After time.Duration
	// FromSession makes the element exist only in the Nth session (1-based) of
	// a provider and later ones (for flaky-test scenarios).
	FromSession int
	// Effects run when the element is tapped (tap) or filled (fill).
	OnTap  []Effect
	OnFill []Effect
	// Children are nested elements.
	Children []*Element
	Line     int
}

// Effect is what an action on an element does.
type Effect struct {
	Kind string // goto, alert, set
	Arg  string
}

// Fault makes an operation kind fail or hang.
type Fault struct {
	Op    string // an op kind: tap, fill, open, snapshot, ...
	Hang  bool
	Times int    // fail only the first Times occurrences (0 = always)
	Msg   string // error message for fail
}

var interactiveRoles = map[string]bool{
	"button": true, "link": true, "textbox": true, "checkbox": true, "switch": true,
	"radio": true, "tab": true, "menuitem": true, "combobox": true, "searchbox": true,
	"slider": true, "textfield": true, "cell": true,
}

// ParseScreens parses the screens format (see the package documentation).
// Errors name the file and the 1-based line.
func ParseScreens(name, src string) (*Screens, error) {
	s := &Screens{
		Screens:  map[string]*Screen{},
		Opens:    map[string]string{},
		Viewport: drivers.Rect{Width: 390, Height: 844},
	}
	type frame struct {
		indent int
		el     *Element
	}
	var cur *Screen
	var stack []frame
	var gotos []struct {
		line int
		name string
	}
	errf := func(line int, format string, args ...any) error {
		return fmt.Errorf("%s:%d: %s", name, line, fmt.Sprintf(format, args...))
	}
	for i, raw := range strings.Split(strings.ReplaceAll(src, "\r\n", "\n"), "\n") {
		line := i + 1
		trimmed := strings.TrimSpace(raw)
		if trimmed == "" || strings.HasPrefix(trimmed, "#") {
			continue
		}
		indent := len(raw) - len(strings.TrimLeftFunc(raw, unicode.IsSpace))
		toks, quoted, err := tokenize(trimmed)
		if err != nil {
			return nil, errf(line, "%v", err)
		}
		if indent == 0 {
			stack = stack[:0]
			switch toks[0] {
			case "screen":
				if len(toks) < 2 || len(toks) > 3 {
					return nil, errf(line, "usage: screen NAME [\"TITLE\"]")
				}
				if _, dup := s.Screens[toks[1]]; dup {
					return nil, errf(line, "duplicate screen %q", toks[1])
				}
				cur = &Screen{Name: toks[1], Line: line}
				if len(toks) == 3 {
					cur.Title = toks[2]
				}
				s.Screens[cur.Name] = cur
				s.Order = append(s.Order, cur.Name)
			case "open":
				if len(toks) != 4 || toks[2] != "->" {
					return nil, errf(line, "usage: open TARGET -> SCREEN")
				}
				s.Opens[toks[1]] = toks[3]
				gotos = append(gotos, struct {
					line int
					name string
				}{line, toks[3]})
				cur = nil
			case "viewport":
				if len(toks) != 3 {
					return nil, errf(line, "usage: viewport WIDTH HEIGHT")
				}
				w, err1 := strconv.ParseFloat(toks[1], 64)
				h, err2 := strconv.ParseFloat(toks[2], 64)
				if err1 != nil || err2 != nil || w <= 0 || h <= 0 {
					return nil, errf(line, "viewport needs two positive numbers")
				}
				s.Viewport = drivers.Rect{Width: w, Height: h}
				cur = nil
			case "fail", "hang":
				f := Fault{Hang: toks[0] == "hang"}
				if len(toks) < 2 {
					return nil, errf(line, "usage: %s OP [times=N] [\"MESSAGE\"]", toks[0])
				}
				f.Op = toks[1]
				for _, t := range toks[2:] {
					if v, ok := strings.CutPrefix(t, "times="); ok {
						n, err := strconv.Atoi(v)
						if err != nil || n < 1 {
							return nil, errf(line, "times= needs a positive integer, got %q", v)
						}
						f.Times = n
					} else {
						f.Msg = t
					}
				}
				s.Faults = append(s.Faults, f)
				cur = nil
			default:
				return nil, errf(line, "unknown directive %q (want screen, open, viewport, fail or hang; elements must be indented under a screen)", toks[0])
			}
			continue
		}
		if cur == nil {
			return nil, errf(line, "element outside a screen")
		}
		el, targets, err := parseElement(toks, quoted)
		if err != nil {
			return nil, errf(line, "%v", err)
		}
		el.Line = line
		for _, t := range targets {
			gotos = append(gotos, struct {
				line int
				name string
			}{line, t})
		}
		for len(stack) > 0 && stack[len(stack)-1].indent >= indent {
			stack = stack[:len(stack)-1]
		}
		if len(stack) == 0 {
			cur.Roots = append(cur.Roots, el)
		} else {
			p := stack[len(stack)-1].el
			p.Children = append(p.Children, el)
		}
		stack = append(stack, frame{indent: indent, el: el})
	}
	for _, g := range gotos {
		if _, ok := s.Screens[g.name]; !ok {
			return nil, errf(g.line, "unknown screen %q", g.name)
		}
	}
	if len(s.Screens) == 0 {
		return nil, fmt.Errorf("%s: no screen declared", name)
	}
	return s, nil
}

// LoadScreens reads and parses a screens file.
func LoadScreens(path string) (*Screens, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return ParseScreens(path, string(b))
}

func parseElement(toks []string, quoted []bool) (*Element, []string, error) {
	el := &Element{Role: toks[0]}
	var targets []string
	i := 1
	if i < len(toks) && quoted[i] {
		el.Label = toks[i]
		i++
	}
	for ; i < len(toks); i++ {
		t := toks[i]
		if t == "->" {
			effs, on, tg, err := parseEffects(toks[i+1:])
			if err != nil {
				return nil, nil, err
			}
			targets = append(targets, tg...)
			if on == "fill" {
				el.OnFill = effs
			} else {
				el.OnTap = effs
			}
			break
		}
		key, val, hasEq := strings.Cut(t, "=")
		if !hasEq {
			switch t {
			case "hidden":
				el.Hidden = true
			case "editable":
				el.Editable = true
			case "selected":
				el.Selected = true
			case "focused":
				el.Focused = true
			case "disabled":
				el.Disabled = true
			case "interactive", "static":
				v := t == "interactive"
				el.Interactive = &v
			default:
				return nil, nil, fmt.Errorf("unknown element flag %q", t)
			}
			continue
		}
		switch key {
		case "label":
			el.Label = val
		case "id":
			el.ID = val
		case "text":
			el.Text = val
		case "value":
			el.Value = val
		case "rect":
			parts := strings.Split(val, ",")
			if len(parts) != 4 {
				return nil, nil, fmt.Errorf("rect needs x,y,w,h, got %q", val)
			}
			var f [4]float64
			for j, p := range parts {
				v, err := strconv.ParseFloat(p, 64)
				if err != nil {
					return nil, nil, fmt.Errorf("rect needs x,y,w,h, got %q", val)
				}
				f[j] = v
			}
			el.Rect = &drivers.Rect{X: f[0], Y: f[1], Width: f[2], Height: f[3]}
		case "after":
			d, err := time.ParseDuration(val)
			if err != nil || d < 0 {
				return nil, nil, fmt.Errorf("after needs a duration like 500ms, got %q", val)
			}
			el.After = d
		case "from-session":
			n, err := strconv.Atoi(val)
			if err != nil || n < 1 {
				return nil, nil, fmt.Errorf("from-session needs a positive integer, got %q", val)
			}
			el.FromSession = n
		default:
			return nil, nil, fmt.Errorf("unknown element attribute %q", key)
		}
	}
	return el, targets, nil
}

// parseEffects parses "[on fill] goto X, alert "T", set "V"".
func parseEffects(toks []string) ([]Effect, string, []string, error) {
	on := "tap"
	if len(toks) >= 2 && toks[0] == "on" {
		on = toks[1]
		if on != "tap" && on != "fill" {
			return nil, "", nil, fmt.Errorf("effect trigger must be tap or fill, got %q", on)
		}
		toks = toks[2:]
	}
	var effs []Effect
	var targets []string
	for len(toks) > 0 {
		if toks[0] == "," {
			toks = toks[1:]
			continue
		}
		if len(toks) < 2 {
			return nil, "", nil, fmt.Errorf("effect %q needs an argument", toks[0])
		}
		kind, arg := toks[0], strings.TrimSuffix(toks[1], ",")
		switch kind {
		case "goto":
			targets = append(targets, arg)
		case "alert", "set":
		default:
			return nil, "", nil, fmt.Errorf("unknown effect %q (want goto, alert or set)", kind)
		}
		effs = append(effs, Effect{Kind: kind, Arg: arg})
		toks = toks[2:]
	}
	if len(effs) == 0 {
		return nil, "", nil, fmt.Errorf("-> needs at least one effect")
	}
	return effs, on, targets, nil
}

// tokenize splits a line into words; "double quoted" strings are one word
// (Go escapes), key="quoted value" keeps the key.
func tokenize(s string) ([]string, []bool, error) {
	var out []string
	var quoted []bool
	i := 0
	for i < len(s) {
		if s[i] == ' ' || s[i] == '\t' {
			i++
			continue
		}
		var b strings.Builder
		quoted = append(quoted, s[i] == '"')
		for i < len(s) && s[i] != ' ' && s[i] != '\t' {
			if s[i] == '"' {
				j := i + 1
				for j < len(s) && s[j] != '"' {
					if s[j] == '\\' {
						j++
					}
					j++
				}
				if j >= len(s) {
					return nil, nil, fmt.Errorf("unterminated quote")
				}
				v, err := strconv.Unquote(s[i : j+1])
				if err != nil {
					return nil, nil, fmt.Errorf("bad quoted string %s", s[i:j+1])
				}
				b.WriteString(v)
				i = j + 1
				continue
			}
			b.WriteByte(s[i])
			i++
		}
		out = append(out, b.String())
	}
	return out, quoted, nil
}
