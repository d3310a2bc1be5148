package fakedevice

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/adtest/adtest/drivers"
)

// classes maps the screens file's roles to Android widget classes.
var classes = map[string]string{
	"button": "android.widget.Button", "textbox": "android.widget.EditText", "searchbox": "android.widget.EditText",
	"textfield": "android.widget.EditText", "text": "android.widget.TextView", "heading": "android.widget.TextView",
	"link": "android.widget.TextView", "checkbox": "android.widget.CheckBox", "switch": "android.widget.Switch",
	"image": "android.widget.ImageView", "list": "androidx.recyclerview.widget.RecyclerView",
	"radio": "android.widget.RadioButton", "tab": "android.widget.TextView", "cell": "android.view.ViewGroup",
}

type alertButton struct {
	id, label string
	accept    bool
	rect      drivers.Rect
}

func alertButtons(vp drivers.Rect) []alertButton {
	cy := vp.Height / 2
	return []alertButton{
		{id: "android:id/button2", label: "Cancel", accept: false, rect: drivers.Rect{X: vp.Width/2 - 300, Y: cy, Width: 280, Height: 100}},
		{id: "android:id/button1", label: "OK", accept: true, rect: drivers.Rect{X: vp.Width/2 + 20, Y: cy, Width: 280, Height: 100}},
	}
}

func bounds(r drivers.Rect) string {
	return fmt.Sprintf("[%d,%d][%d,%d]", int(r.X), int(r.Y), int(r.X+r.Width), int(r.Y+r.Height))
}

var escaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;", "'", "&apos;", "\n", "&#10;", "\r", "&#13;", "\t", "&#9;")

func esc(s string) string { return escaper.Replace(s) }

// xnode is one element to print; dump selects uiautomator dump's shape.
type xnode struct {
	index                          int
	window                         string // window attributes of a root, helper shape only
	text, id, class, pkg, desc     string
	visible, clickable, enabled    bool
	focusable, focused, scrollable bool
	password                       bool
	r                              drivers.Rect
	children                       []*xnode
}

func (n *xnode) write(b *strings.Builder, dump bool) {
	attr := func(k, v string) { fmt.Fprintf(b, ` %s="%s"`, k, esc(v)) }
	boolean := func(k string, v bool) {
		if dump || v {
			attr(k, strconv.FormatBool(v))
		}
	}
	str := func(k, v string) {
		if dump || v != "" {
			attr(k, v)
		}
	}
	b.WriteString("<node")
	attr("index", strconv.Itoa(n.index))
	if !dump && n.window != "" {
		b.WriteString(n.window)
	}
	str("text", n.text)
	str("resource-id", n.id)
	attr("class", n.class)
	str("package", n.pkg)
	str("content-desc", n.desc)
	if dump {
		boolean("checkable", false)
		boolean("checked", false)
	} else {
		attr("visible-to-user", strconv.FormatBool(n.visible))
	}
	boolean("clickable", n.clickable)
	attr("enabled", strconv.FormatBool(n.enabled))
	boolean("focusable", n.focusable)
	boolean("focused", n.focused)
	if dump {
		boolean("scrollable", n.scrollable)
		boolean("long-clickable", false)
		boolean("password", n.password)
		boolean("selected", false)
	} else {
		if n.scrollable {
			attr("scrollable", "true")
			attr("can-scroll-forward", "true")
			attr("can-scroll-backward", "true")
		}
		boolean("password", n.password)
	}
	attr("bounds", bounds(n.r))
	if len(n.children) == 0 {
		b.WriteString(" />")
		return
	}
	b.WriteString(">")
	for _, c := range n.children {
		if dump && !c.visible {
			continue // dump prints visible children only
		}
		c.write(b, dump)
	}
	b.WriteString("</node>")
}

// hierarchy renders the screen as the helper (or, with dump, as
// uiautomator dump) would, with the capture metadata.
func (d *Device) hierarchy(dump bool) (string, map[string]string, error) {
	ctx, cancel := appCtx()
	defer cancel()
	vp := d.opts.Screens.Viewport
	full := drivers.Rect{Width: vp.Width, Height: vp.Height}
	pkg := d.Foreground()
	winAttrs := func(i, typ int, active bool) string {
		return fmt.Sprintf(` window-index="%d" window-type="%d" window-layer="%d" window-active="%v" window-focused="%v" window-bounds="%s"`, i, typ, i, active, active, bounds(full))
	}
	var roots []*xnode
	count := 0
	if pkg == "" {
		root := &xnode{window: winAttrs(0, 1, true), class: "android.widget.FrameLayout", pkg: launcherPkg, visible: true, enabled: true, r: full}
		root.children = []*xnode{{text: "Home", class: "android.widget.TextView", pkg: launcherPkg, visible: true, enabled: true, r: drivers.Rect{X: 0, Y: 100, Width: vp.Width, Height: 80}}}
		roots = append(roots, root)
		count = 2
	} else {
		snap, err := d.app.Snapshot(ctx, drivers.SnapshotOptions{})
		if err != nil {
			return "", nil, err
		}
		root := &xnode{window: winAttrs(0, 1, true), class: "android.widget.FrameLayout", pkg: pkg, visible: true, enabled: true, r: full}
		made := make([]*xnode, len(snap.Nodes))
		counts := map[*xnode]int{}
		for i, n := range snap.Nodes {
			x := &xnode{pkg: pkg, class: classes[n.Role], visible: n.Visible, enabled: n.Enabled, focused: n.Focused, r: n.Rect}
			if x.class == "" {
				x.class = "android.view.ViewGroup"
			}
			if n.ID != "" {
				x.id = pkg + ":id/" + n.ID
			}
			if n.Editable {
				x.text, x.desc, x.focusable, x.clickable = n.Value, n.Label, true, true
				x.password = strings.Contains(strings.ToLower(n.ID+n.Label), "password")
				if x.password {
					x.text = strings.Repeat("•", len([]rune(n.Value)))
				}
			} else {
				x.text = n.Text
				if x.text == "" {
					x.text = n.Label
				} else if n.Label != "" && n.Label != n.Text {
					x.desc = n.Label
				}
				x.clickable = n.Interactive
			}
			x.scrollable = n.Role == "list"
			parent := root
			if n.Parent >= 0 {
				parent = made[n.Parent]
			}
			x.index = counts[parent]
			counts[parent]++
			parent.children = append(parent.children, x)
			made[i] = x
		}
		roots = append(roots, root)
		count = len(snap.Nodes) + 1
		if text, open, _ := d.app.AlertText(ctx); open {
			dlg := drivers.Rect{X: vp.Width/2 - 340, Y: vp.Height/2 - 200, Width: 680, Height: 340}
			w := &xnode{index: 0, window: winAttrs(1, 1, true), class: "android.widget.FrameLayout", pkg: "android", visible: true, enabled: true, r: dlg}
			w.children = append(w.children, &xnode{id: "android:id/message", text: text, class: "android.widget.TextView", pkg: "android", visible: true, enabled: true,
				r: drivers.Rect{X: dlg.X + 20, Y: dlg.Y + 20, Width: dlg.Width - 40, Height: 120}})
			for i, btn := range alertButtons(vp) {
				w.children = append(w.children, &xnode{index: i + 1, id: btn.id, text: btn.label, class: "android.widget.Button", pkg: "android", visible: true, enabled: true, clickable: true, focusable: true, r: btn.rect})
			}
			roots[0].window = winAttrs(0, 1, false)
			if dump {
				roots = nil // uiautomator dump shows the active window only
			}
			roots = append(roots, w)
			count += 4
		}
	}
	for _, r := range roots {
		clip(r, full)
	}
	var b strings.Builder
	b.WriteString(`<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="0">`)
	for _, r := range roots {
		r.write(&b, dump)
	}
	b.WriteString("</hierarchy>")
	meta := map[string]string{"rootPresent": "true", "captureMode": "interactive-windows", "windowCount": strconv.Itoa(len(roots)),
		"nodeCount": strconv.Itoa(count), "truncated": "false", "elapsedMs": "1"}
	return b.String(), meta, nil
}

// clip makes a container visible when any descendant is, with the bounds
// of its visible part, as a scrolled Android list reports itself.
func clip(n *xnode, screen drivers.Rect) bool {
	any := false
	var u drivers.Rect
	for _, c := range n.children {
		if clip(c, screen) {
			if !any {
				u = c.r
			} else {
				u = union(u, c.r)
			}
			any = true
		}
	}
	if any && !n.visible {
		n.visible = true
		n.r = intersect(u, screen)
	}
	return n.visible
}

func union(a, b drivers.Rect) drivers.Rect {
	x0, y0 := min(a.X, b.X), min(a.Y, b.Y)
	x1, y1 := max(a.X+a.Width, b.X+b.Width), max(a.Y+a.Height, b.Y+b.Height)
	return drivers.Rect{X: x0, Y: y0, Width: x1 - x0, Height: y1 - y0}
}

func intersect(a, b drivers.Rect) drivers.Rect {
	x0, y0 := max(a.X, b.X), max(a.Y, b.Y)
	x1, y1 := min(a.X+a.Width, b.X+b.Width), min(a.Y+a.Height, b.Y+b.Height)
	if x1 < x0 || y1 < y0 {
		return drivers.Rect{}
	}
	return drivers.Rect{X: x0, Y: y0, Width: x1 - x0, Height: y1 - y0}
}
