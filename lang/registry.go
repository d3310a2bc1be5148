package lang

import (
	"sort"
	"strings"
)

// The one command table (spec §2.2 and the §6 effect table). The script flag
// decoder (scriptflags.go), the checker, the runner, the recorder, `adtest help`
// and docs/commands.md all read it.

// Effect is a command's ref-frame effect (ADR 0014).
type Effect int

const (
	EffectPreserve      Effect = iota // reads: never expire a frame
	EffectMayInvalidate               // mutations: expire at the side-effect seam
	EffectConditional                 // per sub-action (keyboard, alert, find): see EffectOf
	EffectDelegated                   // orchestrators (replay, test, batch): each step decides
)

func (e Effect) String() string {
	switch e {
	case EffectPreserve:
		return "preserve"
	case EffectMayInvalidate:
		return "may-invalidate"
	case EffectConditional:
		return "conditional"
	case EffectDelegated:
		return "delegated"
	}
	return "unknown"
}

// FlagKind says how a script flag takes its value (spec §1.6).
type FlagKind int

const (
	// FlagBool: presence sets the key to true.
	FlagBool FlagKind = iota
	// FlagInt: the next token must be a finite number >= 0 (floored); otherwise
	// the flag stays a positional and the next token is read on its own
	// (snapshot -d consumes it either way).
	FlagInt
	// FlagEnum: the next token is consumed; a value outside Enum is dropped.
	FlagEnum
	// FlagString: the next token is consumed as the value.
	FlagString
	// FlagPositiveInt: the next token must be an integer >= 1, otherwise the
	// line is a parse error "<command> --<flag> requires a positive integer".
	FlagPositiveInt
	// FlagIntOrDrop: the next token is consumed; a finite number >= 0 is
	// floored, any other value (for example ${PORT}) is dropped (--metro-port).
	FlagIntOrDrop
	// FlagNumber: the next token must be a finite number; otherwise both stay positionals.
	FlagNumber
	// FlagIgnored: accepted and dropped (snapshot -c); with Value, it consumes one token.
	FlagIgnored
	// FlagRetired: a parse error carrying Message (a migration hint).
	FlagRetired
	// FlagFloorOrDrop: the next token is consumed; any finite number is floored
	// (negative ones too), any other value is dropped (record --fps).
	FlagFloorOrDrop
	// FlagQuality: the next token is consumed; medium and high are kept, an
	// integer 5-7 is medium, 8-10 high, any other value is dropped (record --quality).
	FlagQuality
	// FlagScale: the next token must be a number from 0.01 to 1, otherwise the
	// line is a parse error (screenshot --scale).
	FlagScale
	// FlagSelector: the next token is the value and must not be empty,
	// otherwise the line is a parse error (screenshot --crop-on).
	FlagSelector
	// FlagBoolFalse: presence sets the key to false (open --no-test-ime).
	FlagBoolFalse
)

// FlagSpec is one script flag of a command.
type FlagSpec struct {
	Names   []string // spellings, e.g. {"--depth", "-d"}
	Key     string   // agent-device's camelCase key in Action.Flags / Action.Runtime
	Kind    FlagKind
	Value   string   // value placeholder for usage ("n", "ms", "x"); "" for booleans
	Enum    []string // allowed values of FlagEnum
	Runtime bool     // stored in Action.Runtime (open runtime hints)
	// FreeText marks a string value that is free text (a selector, a label):
	// the printer quotes it like a positional, not like a one-word value.
	FreeText bool
	Newest   bool // newest grammar only (not in agent-device v0.20.3)
	Summary  string
	// Message is the error text of a FlagRetired flag; on a flag adtest keeps
	// although agent-device removed it, the warning `adtest check` gives.
	Message string
}

// TakesValue reports whether the flag consumes the next token.
func (f *FlagSpec) TakesValue() bool {
	switch f.Kind {
	case FlagBool, FlagBoolFalse, FlagRetired:
		return false
	case FlagIgnored:
		return f.Value != ""
	}
	return true
}

// CommandSpec is one row of the command table.
type CommandSpec struct {
	Name      string
	Usage     string // script form, e.g. "click <@ref [label] | x y | selector> [flags]"
	Summary   string
	Effect    Effect
	Recorded  Recorded
	Platforms []string // platforms the command exists on; empty = all

	// Flags are the script flags the line parser recognises for the command
	// (spec §2.2 Parse column); every other token stays a positional. Their
	// order is the order the printer and the recorder write them in.
	Flags []FlagSpec
	// MinArgs and MaxArgs bound the positionals after flag decoding where the
	// arity is known (MaxArgs -1: unbounded). Sub-command arities (gesture) are
	// checked by the parser itself.
	MinArgs, MaxArgs int
	// Script is false for commands that exist in the table only for their
	// classification (orchestrators test and batch cannot be script lines).
	Script bool
	// Newest marks commands of the newest grammar only (not in v0.20.3).
	Newest bool
	// Notes is an optional longer remark for the reference.
	Notes string
	// Interactive marks the commands `adtest NAME ...` runs on a live session
	// through the warm daemon (set from interactiveCommands).
	Interactive bool
	// Traits are what callers ask of the command instead of its name (set
	// by registerTraits, traits.go).
	Traits Traits
}

// Recorded says whether a recording writes a command.
type Recorded string

const (
	RecordedYes         Recorded = "y"   // written as a step
	RecordedNo          Recorded = "n"   // not written
	RecordedObservation Recorded = "obs" // an observation: read, not written
)

// Flag returns the flag spec a token spells, if the command has one.
func (c *CommandSpec) Flag(tok string) (*FlagSpec, bool) {
	for i := range c.Flags {
		for _, n := range c.Flags[i].Names {
			if n == tok {
				return &c.Flags[i], true
			}
		}
	}
	return nil, false
}

// Platform names used by the table. "apple" (a context platform) means ios or macos.
const (
	PlatformIOS     = "ios"
	PlatformAndroid = "android"
	PlatformMacOS   = "macos"
	PlatformLinux   = "linux"
	PlatformWeb     = "web"
	PlatformVega    = "vega"
)

// AllPlatforms lists every platform name of the table.
var AllPlatforms = []string{PlatformIOS, PlatformAndroid, PlatformMacOS, PlatformLinux, PlatformWeb, PlatformVega}

var (
	interactive = []string{PlatformIOS, PlatformAndroid, PlatformMacOS, PlatformLinux, PlatformWeb}
	native      = []string{PlatformIOS, PlatformAndroid, PlatformMacOS, PlatformLinux}
	mobile      = []string{PlatformIOS, PlatformAndroid}
	mobileTV    = []string{PlatformIOS, PlatformAndroid, PlatformVega}
)

// Shared flag groups.
var (
	clickFlags = []FlagSpec{
		{Names: []string{"--count"}, Key: "count", Kind: FlagInt, Value: "n", Summary: "repeat the tap n times (one series)"},
		{Names: []string{"--interval-ms"}, Key: "intervalMs", Kind: FlagInt, Value: "ms", Summary: "pause between repeated taps"},
		{Names: []string{"--hold-ms"}, Key: "holdMs", Kind: FlagInt, Value: "ms", Summary: "hold each tap"},
		{Names: []string{"--jitter-px"}, Key: "jitterPx", Kind: FlagInt, Value: "px", Summary: "jitter repeated taps"},
		{Names: []string{"--double-tap"}, Key: "doubleTap", Kind: FlagBool, Summary: "double tap"},
		{Names: []string{"--button"}, Key: "clickButton", Kind: FlagEnum, Value: "primary|secondary|middle", Enum: []string{"primary", "secondary", "middle"}, Summary: "mouse button (secondary = context click); other values are dropped"},
	}
	delayFlags = []FlagSpec{
		{Names: []string{"--delay-ms"}, Key: "delayMs", Kind: FlagInt, Value: "ms", Summary: "delay between typed characters"},
	}
	snapshotFlags = []FlagSpec{
		{Names: []string{"-i"}, Key: "snapshotInteractiveOnly", Kind: FlagBool, Summary: "interactive elements only"},
		{Names: []string{"-c"}, Key: "", Kind: FlagIgnored, Summary: "ignored (compact is the default)"},
		{Names: []string{"-d", "--depth"}, Key: "snapshotDepth", Kind: FlagInt, Value: "n", Summary: "maximum tree depth"},
		{Names: []string{"-s", "--scope"}, Key: "snapshotScope", Kind: FlagString, FreeText: true, Value: "label|@ref", Summary: "scope the tree to a label or ref"},
		{Names: []string{"--raw"}, Key: "snapshotRaw", Kind: FlagBool, Summary: "raw platform tree"},
		{Names: []string{"--force-full"}, Key: "snapshotForceFull", Kind: FlagBool, Summary: "force a full capture"},
		{Names: []string{"--backend"}, Key: "", Kind: FlagIgnored, Value: "x", Summary: "ignored (legacy)"},
	}
	runtimeFlags = []FlagSpec{
		{Names: []string{"--platform"}, Key: "platform", Kind: FlagEnum, Value: "ios|android|harmonyos", Enum: []string{"ios", "android", "harmonyos"}, Runtime: true, Summary: "runtime platform hint; other values are dropped"},
		{Names: []string{"--metro-host"}, Key: "metroHost", Kind: FlagString, Value: "host", Runtime: true, Summary: "Metro bundler host"},
		{Names: []string{"--metro-port"}, Key: "metroPort", Kind: FlagIntOrDrop, Value: "n", Runtime: true, Summary: "Metro port (floored); a non-number (such as ${PORT}) is dropped"},
		{Names: []string{"--bundle-url"}, Key: "bundleUrl", Kind: FlagString, Value: "url", Runtime: true, Summary: "JS bundle URL"},
		{Names: []string{"--launch-url"}, Key: "launchUrl", Kind: FlagString, Value: "url", Runtime: true, Summary: "URL to open after launch"},
	}
)

// lineFlags copies runtime-hint flags as ordinary flags: on a runtime line
// agent-device keeps --platform, --metro-host and the others in flags.
func lineFlags(fs []FlagSpec) []FlagSpec {
	out := append([]FlagSpec(nil), fs...)
	for i := range out {
		out[i].Runtime = false
	}
	return out
}

// commandTable is the source of Commands.
// visibleRule is what visible and hidden mean, for the reference (issue 34).
const visibleRule = "On web, visible means on the page for a user to see, as in agent-device's own web backend " +
	"(agent-browser, built on Playwright: a box with an area and not visibility: hidden; agent-device tests a node " +
	"against the app's window, and a web snapshot has no window node, so an element below the fold passes): " +
	"an element below the fold, scrolled out of a list or at opacity 0 is visible, and `is hidden` fails on it; " +
	"hidden is an empty box or visibility: hidden, and display: none leaves no node (`is absent`). " +
	"The reason: whether an element is in view depends on the scroll position, which the window size or an " +
	"earlier step changes, while whether it is on the page does not. To check that an element is in view, " +
	"use hittable=true (in view and not covered); `scroll --until` scrolls until it is in view, and an action " +
	"scrolls to its target itself."

var commandTable = []*CommandSpec{
	{Name: "open", Usage: "open [app|url] [url] [--relaunch] [--test-ime|--no-test-ime] [--platform p] [--metro-host h] [--metro-port n] [--bundle-url u] [--launch-url u]",
		Summary: "open or activate an app, a URL or a deep link (creates the session)", Effect: EffectMayInvalidate, Recorded: RecordedYes, MinArgs: 0, MaxArgs: 2,
		Flags: append([]FlagSpec{{Names: []string{"--relaunch"}, Key: "relaunch", Kind: FlagBool, Summary: "restart the app"},
			{Names: []string{"--test-ime"}, Key: "testIme", Kind: FlagBool, Summary: "use the test keyboard (IME)"},
			{Names: []string{"--no-test-ime"}, Key: "testIme", Kind: FlagBoolFalse, Summary: "do not use the test keyboard (IME)"}}, runtimeFlags...)},
	{Name: "close", Usage: "close [app]", Summary: "end the session (terminate the app, release the device)", Effect: EffectMayInvalidate, Recorded: RecordedYes, MinArgs: 0, MaxArgs: 1},
	{Name: "snapshot", Usage: "snapshot [-i] [-c] [-d n|--depth n] [-s x|--scope x] [--raw] [--force-full]",
		Summary: "capture the accessibility tree; activates a complete ref frame", Effect: EffectPreserve, Recorded: RecordedObservation, Platforms: interactive, MinArgs: 0, MaxArgs: 0,
		Flags: snapshotFlags, Notes: "Every other token is silently ignored."},
	{Name: "diff", Usage: "diff snapshot", Summary: "snapshot diff against the previous capture (partial publication)", Effect: EffectPreserve, Recorded: RecordedObservation, Platforms: interactive, MinArgs: 1, MaxArgs: -1},
	{Name: "click", Usage: "click <@ref [label] | x y | selector> [--count n] [--interval-ms n] [--hold-ms n] [--jitter-px n] [--double-tap] [--button b]",
		Summary: "tap or click a target", Effect: EffectMayInvalidate, Recorded: RecordedYes, Platforms: interactive, MinArgs: 1, MaxArgs: -1, Flags: clickFlags},
	{Name: "press", Usage: "press <@ref [label] | x y | selector> [--count n] [--interval-ms n] [--hold-ms n] [--jitter-px n] [--double-tap] [--button b]",
		Summary: "press a target (same as click)", Effect: EffectMayInvalidate, Recorded: RecordedYes, Platforms: interactive, MinArgs: 1, MaxArgs: -1, Flags: clickFlags},
	{Name: "longpress", Usage: "longpress <target> [durationMs]", Summary: "long-press a target", Effect: EffectMayInvalidate, Recorded: RecordedYes,
		Platforms: native, MinArgs: 1, MaxArgs: -1},
	{Name: "fill", Usage: "fill <@ref [label] text | x y text | selector text> [--delay-ms n]", Summary: "clear a field, then type text into it",
		Effect: EffectMayInvalidate, Recorded: RecordedYes, Platforms: interactive, MinArgs: 2, MaxArgs: -1, Flags: delayFlags},
	{Name: "type", Usage: "type <text...> [--delay-ms n]", Summary: "type into the focused element without clearing", Effect: EffectMayInvalidate, Recorded: RecordedYes,
		Platforms: interactive, MinArgs: 1, MaxArgs: -1, Flags: delayFlags, Notes: "A quoted token is never a flag: type \"--delay-ms\" types the text."},
	{Name: "focus", Usage: "focus <target>", Summary: "focus an element", Effect: EffectMayInvalidate, Recorded: RecordedYes, Platforms: interactive, MinArgs: 1, MaxArgs: -1},
	{Name: "hover", Usage: "hover <target>", Summary: "move the pointer over a target without pressing", Effect: EffectMayInvalidate, Recorded: RecordedYes,
		Platforms: []string{PlatformWeb}, MinArgs: 1, MaxArgs: -1, Newest: true},
	{Name: "get", Usage: "get text|attrs <@ref [label] | selector>", Summary: "read the text or the attributes of an element", Effect: EffectPreserve, Recorded: RecordedObservation,
		Platforms: interactive, MinArgs: 2, MaxArgs: -1},
	{Name: "is", Usage: "is <visible|hidden|exists|editable|selected|focused|text|absent> <selector> [value]", Summary: "assert a predicate on a selector",
		Effect: EffectPreserve, Recorded: RecordedObservation, Platforms: interactive, MinArgs: 2, MaxArgs: -1,
		Notes: visibleRule},
	{Name: "find", Usage: "find [text|label|value|role|id] <query> [click|focus|fill v|type v|get text|get attrs|exists|wait [ms]]",
		Summary: "fuzzy-locate an element, then act on it", Effect: EffectConditional, Recorded: RecordedYes, Platforms: interactive, MinArgs: 1, MaxArgs: -1,
		Notes: "Reads (get, exists, wait) preserve the ref frame and publish a partial one; click, focus, fill and type may invalidate it."},
	{Name: "wait", Usage: "wait <ms> | text <text...> [ms] | <selector> [ms] | @ref [ms] | stable [quietMs] [timeoutMs] | absent <selector> [ms] [--raw] [--depth n] [--scope x]",
		Summary: "sleep, or poll until text, a selector or a ref appears (or the screen is stable)", Effect: EffectPreserve, Recorded: RecordedYes, MinArgs: 1, MaxArgs: -1,
		Flags: []FlagSpec{
			{Names: []string{"--raw"}, Key: "snapshotRaw", Kind: FlagBool, Newest: true, Summary: "poll the raw tree"},
			{Names: []string{"--depth"}, Key: "snapshotDepth", Kind: FlagInt, Value: "n", Newest: true, Summary: "tree depth of each poll"},
			{Names: []string{"--scope"}, Key: "snapshotScope", Kind: FlagString, FreeText: true, Value: "x", Newest: true, Summary: "scope each poll"},
		},
		Notes: "A selector's visible=true and hidden=true are the rule of `is visible` and `is hidden` (see is): wait \"id=x visible=true\" and is visible \"id=x\" agree."},
	{Name: "scroll", Usage: "scroll <up|down|left|right|top|bottom> [amount] [--until selector]", Summary: "scroll by a viewport fraction or to an edge",
		Effect: EffectMayInvalidate, Recorded: RecordedYes, Platforms: interactive, MinArgs: 1, MaxArgs: 2,
		Flags: []FlagSpec{{Names: []string{"--until"}, Key: "scrollUntil", Kind: FlagString, FreeText: true, Value: "selector", Newest: true, Summary: "repeat until the element is in view"}}},
	{Name: "swipe", Usage: "swipe x1 y1 x2 y2 [--count n] [--pause-ms n] [--pattern one-way|ping-pong]", Summary: "quick fixed-duration fling between two points",
		Effect: EffectMayInvalidate, Recorded: RecordedYes, Platforms: interactive, MinArgs: 4, MaxArgs: 4,
		Flags: []FlagSpec{
			{Names: []string{"--count"}, Key: "count", Kind: FlagInt, Value: "n", Summary: "repeat the swipe"},
			{Names: []string{"--pause-ms"}, Key: "pauseMs", Kind: FlagInt, Value: "ms", Summary: "pause between repeats"},
			{Names: []string{"--pattern"}, Key: "pattern", Kind: FlagEnum, Value: "one-way|ping-pong", Enum: []string{"one-way", "ping-pong"}, Summary: "repeat pattern"},
		}},
	{Name: "gesture", Usage: "gesture pan x y dx dy [ms] | fling dir x y [distance] | swipe preset | pinch scale [x y] | rotate degrees [x y] | transform x y dx dy scale degrees [ms] | drag src dst [srcHoldMs] [moveMs] [dstHoldMs] [--pointer-count n]",
		Summary: "multi-step touch gestures", Effect: EffectMayInvalidate, Recorded: RecordedYes, Platforms: interactive, MinArgs: 1, MaxArgs: -1,
		Flags: []FlagSpec{{Names: []string{"--pointer-count"}, Key: "pointerCount", Kind: FlagInt, Value: "n", Summary: "number of pointers"}},
		Notes: "Arity is checked at parse time; on web only pan is available. On web a pan that starts a native HTML5 drag (a draggable element) carries it on as a person's drag: drag over where the pointer goes, drop where it is released."},
	{Name: "back", Usage: "back", Summary: "go back (app back UI or the Android back key)", Effect: EffectMayInvalidate, Recorded: RecordedYes, Platforms: interactive, MinArgs: 0, MaxArgs: 0},
	{Name: "home", Usage: "home", Summary: "go to the home screen", Effect: EffectMayInvalidate, Recorded: RecordedYes, Platforms: mobileTV, MinArgs: 0, MaxArgs: 0},
	{Name: "app-switcher", Usage: "app-switcher", Summary: "open the app switcher", Effect: EffectMayInvalidate, Recorded: RecordedYes, Platforms: mobileTV, MinArgs: 0, MaxArgs: 0},
	{Name: "orientation", Usage: "orientation portrait|portrait-upside-down|landscape-left|landscape-right", Summary: "rotate the device",
		Effect: EffectMayInvalidate, Recorded: RecordedYes, Platforms: mobile, MinArgs: 1, MaxArgs: 1},
	{Name: "keyboard", Usage: "keyboard [status|get|dismiss|enter|return]", Summary: "inspect or drive the on-screen keyboard",
		Effect: EffectConditional, Recorded: RecordedYes, Platforms: []string{PlatformIOS, PlatformAndroid, PlatformWeb}, MinArgs: 0, MaxArgs: 1,
		Notes: "status and get preserve the ref frame; dismiss, enter and return may invalidate it."},
	{Name: "alert", Usage: "alert [get|wait [ms]|accept|dismiss]", Summary: "read, wait for, accept or dismiss a system alert",
		Effect: EffectConditional, Recorded: RecordedYes, Platforms: []string{PlatformIOS, PlatformAndroid, PlatformMacOS, PlatformWeb}, MinArgs: 0, MaxArgs: 2,
		Notes: "get and wait preserve the ref frame; accept and dismiss may invalidate it."},
	{Name: "appstate", Usage: "appstate", Summary: "report the foreground app and session state", Effect: EffectPreserve, Recorded: RecordedNo, MinArgs: 0, MaxArgs: 0},
	{Name: "screenshot", Usage: "screenshot [path] [--fullscreen|--full|-f] [--no-stabilize] [--normalize-status-bar] [--pixel-density n] [--max-size n] [--scale x] [--crop-on selector]",
		Summary: "write a PNG screenshot", Effect: EffectPreserve, Recorded: RecordedYes, MinArgs: 0, MaxArgs: 1,
		Flags: []FlagSpec{ // in the recorder's fixed order (spec §5.3 item 7)
			{Names: []string{"--pixel-density"}, Key: "screenshotPixelDensity", Kind: FlagPositiveInt, Value: "n", Summary: "pixel density (integer >= 1)"},
			{Names: []string{"--fullscreen", "--full", "-f"}, Key: "screenshotFullscreen", Kind: FlagBool, Summary: "whole screen or page"},
			{Names: []string{"--max-size"}, Key: "screenshotMaxSize", Kind: FlagPositiveInt, Value: "n", Summary: "maximum edge in pixels (integer >= 1; removed in agent-device 0.21, kept by adtest)",
				Message: "screenshot --max-size was removed; use --scale <0.01-1> (or AGENT_DEVICE_SCREENSHOT_SCALE) to downscale proportionally"},
			{Names: []string{"--no-stabilize"}, Key: "screenshotNoStabilize", Kind: FlagBool, Summary: "do not wait for a stable screen"},
			{Names: []string{"--normalize-status-bar"}, Key: "screenshotNormalizeStatusBar", Kind: FlagBool, Summary: "normalise the status bar"},
			{Names: []string{"--crop-on"}, Key: "screenshotCropOn", Kind: FlagSelector, Value: "selector", Newest: true, Summary: "crop to an element"},
			{Names: []string{"--scale"}, Key: "screenshotScale", Kind: FlagScale, Value: "0.01-1", Newest: true, Summary: "resize both dimensions by this factor"},
		}},
	{Name: "record", Usage: "record start [path] [--fps n] [--quality q] [--hide-touches] | record stop", Summary: "record a screen video",
		Effect: EffectPreserve, Recorded: RecordedYes, Platforms: []string{PlatformIOS, PlatformAndroid, PlatformMacOS}, MinArgs: 1, MaxArgs: 2,
		Flags: []FlagSpec{
			{Names: []string{"--fps"}, Key: "fps", Kind: FlagFloorOrDrop, Value: "n", Summary: "frames per second (floored; a non-number is dropped)"},
			{Names: []string{"--quality"}, Key: "quality", Kind: FlagQuality, Value: "medium|high|5-10", Summary: "medium or high (5-7 is medium, 8-10 high; other values are dropped)"},
			{Names: []string{"--hide-touches"}, Key: "hideTouches", Kind: FlagBool, Summary: "do not show touches"},
			{Names: []string{"--max-size"}, Key: "maxSize", Kind: FlagRetired, Newest: true, Summary: "retired",
				Message: "record --max-size was removed; recordings capture at native resolution"},
		}},
	{Name: "trace", Usage: "trace start <path> | trace stop <path>", Summary: "start or stop a diagnostics trace", Effect: EffectPreserve, Recorded: RecordedYes, MinArgs: 1, MaxArgs: 2},
	{Name: "settings", Usage: "settings wifi|airplane|location on|off | location set <lat> <lon> | animations on|off | appearance light|dark|toggle | faceid|touchid match|nonmatch|enroll|unenroll | fingerprint match|nonmatch | clear-app-state [app] | permission grant|deny|reset <perm> [limited]",
		Summary: "change device settings", Effect: EffectMayInvalidate, Recorded: RecordedYes, Platforms: []string{PlatformIOS, PlatformAndroid, PlatformMacOS}, MinArgs: 1, MaxArgs: -1,
		Notes: "adtest's Android driver sets animations, wifi and airplane on|off through adb; any other setting answers UNSUPPORTED_OPERATION naming what the platform can set."},
	{Name: "clipboard", Usage: "clipboard read | clipboard write <text>", Summary: "read or write the clipboard", Effect: EffectPreserve, Recorded: RecordedYes,
		Platforms: []string{PlatformIOS, PlatformAndroid, PlatformMacOS}, MinArgs: 1, MaxArgs: -1},
	{Name: "push", Usage: "push <bundle> <payload.json|inline-json>", Summary: "deliver a push notification", Effect: EffectMayInvalidate, Recorded: RecordedYes,
		Platforms: mobile, MinArgs: 2, MaxArgs: 2},
	{Name: "trigger-app-event", Usage: "trigger-app-event <event> [payloadJson]", Summary: "fire a deep-link based app hook", Effect: EffectMayInvalidate, Recorded: RecordedYes,
		Platforms: native, MinArgs: 1, MaxArgs: 2},
	{Name: "install", Usage: "install [app] <path>", Summary: "install an app", Effect: EffectMayInvalidate, Recorded: RecordedYes, Platforms: mobile, MinArgs: 1, MaxArgs: 2},
	{Name: "reinstall", Usage: "reinstall <app> <path>", Summary: "reinstall an app", Effect: EffectMayInvalidate, Recorded: RecordedYes, Platforms: mobile, MinArgs: 2, MaxArgs: 2},
	{Name: "install-from-source", Usage: "install-from-source <url>", Summary: "build and install an app from a source URL", Effect: EffectMayInvalidate, Recorded: RecordedYes,
		Platforms: mobile, MinArgs: 1, MaxArgs: 1, Notes: "Not classified by agent-device v0.20; adtest treats it as may-invalidate (the safe side)."},
	{Name: "react-native", Usage: "react-native dismiss-overlay", Summary: "React Native dev-build helpers", Effect: EffectMayInvalidate, Recorded: RecordedYes, Platforms: mobile, MinArgs: 1, MaxArgs: 1},
	{Name: "tv-remote", Usage: "tv-remote [press|longpress] <button>", Summary: "press a TV remote button", Effect: EffectMayInvalidate, Recorded: RecordedYes, Platforms: mobileTV, MinArgs: 1, MaxArgs: 2},
	{Name: "viewport", Usage: "viewport <w> <h>", Summary: "resize the browser viewport", Effect: EffectMayInvalidate, Recorded: RecordedYes, Platforms: []string{PlatformWeb}, MinArgs: 2, MaxArgs: 2},
	{Name: "fold", Usage: "fold ... [--keyframes x]", Summary: "drive foldable panels", Effect: EffectMayInvalidate, Recorded: RecordedYes, Platforms: []string{PlatformIOS}, MinArgs: 0, MaxArgs: -1, Newest: true,
		Flags: []FlagSpec{{Names: []string{"--keyframes"}, Key: "keyframes", Kind: FlagString, FreeText: true, Value: "x", Newest: true, Summary: "fold keyframes"}},
		Notes: "Unclassified upstream (ADR 0025); adtest treats it as may-invalidate."},
	{Name: "runtime", Usage: "runtime [--platform p] [--metro-host h] [--metro-port n] [--bundle-url u] [--launch-url u]", Summary: "set runtime hints (before the first open it sets the replay platform)",
		Effect: EffectPreserve, Recorded: RecordedNo, MinArgs: 0, MaxArgs: -1, Flags: lineFlags(runtimeFlags)},
	{Name: "perf", Usage: "perf ...", Summary: "performance metrics", Effect: EffectPreserve, Recorded: RecordedYes, MinArgs: 0, MaxArgs: -1},
	{Name: "logs", Usage: "logs ...", Summary: "device or app logs", Effect: EffectPreserve, Recorded: RecordedNo, MinArgs: 0, MaxArgs: -1},
	{Name: "network", Usage: "network ...", Summary: "network inspection", Effect: EffectPreserve, Recorded: RecordedNo, MinArgs: 0, MaxArgs: -1},
	{Name: "audio", Usage: "audio ...", Summary: "audio inspection", Effect: EffectPreserve, Recorded: RecordedNo, MinArgs: 0, MaxArgs: -1},
	{Name: "events", Usage: "events ...", Summary: "session events", Effect: EffectPreserve, Recorded: RecordedNo, MinArgs: 0, MaxArgs: -1},
	{Name: "devices", Usage: "devices ...", Summary: "list devices", Effect: EffectPreserve, Recorded: RecordedNo, MinArgs: 0, MaxArgs: -1},
	{Name: "apps", Usage: "apps ...", Summary: "list installed apps", Effect: EffectPreserve, Recorded: RecordedNo, MinArgs: 0, MaxArgs: -1},
	{Name: "capabilities", Usage: "capabilities ...", Summary: "report device capabilities", Effect: EffectPreserve, Recorded: RecordedNo, MinArgs: 0, MaxArgs: -1},
	{Name: "doctor", Usage: "doctor ...", Summary: "diagnose the setup", Effect: EffectPreserve, Recorded: RecordedNo, MinArgs: 0, MaxArgs: -1},
	{Name: "boot", Usage: "boot ...", Summary: "boot a device", Effect: EffectMayInvalidate, Recorded: RecordedNo, Platforms: mobile, MinArgs: 0, MaxArgs: -1},
	{Name: "shutdown", Usage: "shutdown ...", Summary: "shut a device down", Effect: EffectMayInvalidate, Recorded: RecordedNo, Platforms: mobile, MinArgs: 0, MaxArgs: -1},
	{Name: "prepare", Usage: "prepare ...", Summary: "prepare a device", Effect: EffectPreserve, Recorded: RecordedNo, MinArgs: 0, MaxArgs: -1},
	{Name: "artifacts", Usage: "artifacts ...", Summary: "list or fetch session artifacts", Effect: EffectPreserve, Recorded: RecordedNo, MinArgs: 0, MaxArgs: -1},
	{Name: "replay", Usage: "replay <file.ad>", Summary: "nested replay: kept in the plan but skipped when the script runs", Effect: EffectDelegated, Recorded: RecordedNo, MinArgs: 0, MaxArgs: -1},
	{Name: "test", Usage: "(not a script line)", Summary: "suite runner (orchestrator)", Effect: EffectDelegated, Recorded: RecordedNo, MinArgs: 0, MaxArgs: -1, Script: false},
	{Name: "batch", Usage: "(not a script line)", Summary: "run several commands as one request (orchestrator)", Effect: EffectDelegated, Recorded: RecordedNo, MinArgs: 0, MaxArgs: -1, Script: false},
}

// notScript lists the commands of the table that cannot be script lines.
var notScript = map[string]bool{"test": true, "batch": true}

// interactiveCommands are the commands adtest also runs one at a time on a
// live session (`adtest click @e3 --session NAME`), through the warm daemon.
var interactiveCommands = map[string]bool{
	"open": true, "snapshot": true, "click": true, "press": true, "longpress": true, "fill": true,
	"type": true, "focus": true, "hover": true, "scroll": true, "swipe": true, "gesture": true,
	"back": true, "home": true, "keyboard": true, "wait": true, "is": true, "get": true,
	"find": true, "alert": true, "screenshot": true, "close": true,
}

// Commands is the command table, sorted by name.
var Commands []*CommandSpec

var commandIndex map[string]*CommandSpec

func init() {
	Commands = make([]*CommandSpec, len(commandTable))
	copy(Commands, commandTable)
	sort.Slice(Commands, func(i, j int) bool { return Commands[i].Name < Commands[j].Name })
	commandIndex = make(map[string]*CommandSpec, len(Commands))
	for _, c := range Commands {
		c.Script = !notScript[c.Name]
		c.Interactive = interactiveCommands[c.Name]
		commandIndex[c.Name] = c
	}
	for name := range interactiveCommands {
		if _, ok := commandIndex[name]; !ok {
			panic("lang: interactive command " + name + " is not in the command table")
		}
	}
	registerTraits()
}

// LookupCommand returns the spec of a command word.
func LookupCommand(name string) (*CommandSpec, bool) {
	c, ok := commandIndex[name]
	return c, ok
}

// CommandNames returns every command name, sorted.
func CommandNames() []string {
	out := make([]string, len(Commands))
	for i, c := range Commands {
		out[i] = c.Name
	}
	return out
}

// SupportsPlatform reports whether the command exists on the platform. An
// empty platform list means every platform; "apple" matches ios or macos.
// Unknown commands support nothing.
func SupportsPlatform(cmd, platform string) bool {
	c, ok := LookupCommand(cmd)
	if !ok {
		return false
	}
	if len(c.Platforms) == 0 {
		return true
	}
	for _, p := range c.Platforms {
		if p == platform || (platform == "apple" && (p == PlatformIOS || p == PlatformMacOS)) {
			return true
		}
	}
	return false
}

// findLocators are the optional locator words of find.
var findLocators = map[string]bool{"text": true, "label": true, "value": true, "role": true, "id": true}

// FindAction returns the sub-action of a find line (default "click"):
// find [locator] <query> [action [value]].
func FindAction(positionals []string) string {
	i := 1
	if len(positionals) >= 2 && findLocators[positionals[0]] {
		i = 2
	}
	if i < len(positionals) {
		return positionals[i]
	}
	return "click"
}

// firstOr is the first positional (a sub-command), or def when there is none.
func firstOr(positionals []string, def string) string {
	if len(positionals) > 0 {
		return positionals[0]
	}
	return def
}

// SubEffect resolves the effect of a conditional command's sub-action.
func SubEffect(command string, positionals []string) Effect {
	switch command {
	case "keyboard":
		if sub := firstOr(positionals, "status"); sub == "status" || sub == "get" {
			return EffectPreserve
		}
		return EffectMayInvalidate
	case "alert":
		if sub := firstOr(positionals, "get"); sub == "get" || sub == "wait" {
			return EffectPreserve
		}
		return EffectMayInvalidate
	case "find":
		switch strings.ToLower(FindAction(positionals)) {
		case "get", "exists", "wait":
			return EffectPreserve
		}
		return EffectMayInvalidate
	}
	if c, ok := LookupCommand(command); ok && c.Effect != EffectConditional {
		return c.Effect
	}
	return EffectMayInvalidate
}

// EffectOf returns the ref-frame effect of one action, resolving conditional
// commands by sub-action: keyboard status|get and alert get|wait preserve,
// other sub-actions may invalidate; find's read sub-actions preserve, its
// click|focus|fill|type sub-actions may invalidate. Unknown commands return
// EffectMayInvalidate (the safe side) and false.
func EffectOf(a *Action) (Effect, bool) {
	c, ok := LookupCommand(a.Command)
	if !ok {
		return EffectMayInvalidate, false
	}
	if c.Effect == EffectConditional {
		return SubEffect(a.Command, a.Positionals), true
	}
	return c.Effect, true
}
