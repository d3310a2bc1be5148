package main

import (
	"fmt"
	"runtime/debug"
	"sync"
)

// version is this adtest build: the module version and VCS revision when
// the binary carries them, plus the executable's size and modification time,
// so that a rebuilt adtest never talks to a daemon of the previous build.
var version = sync.OnceValue(func() string {
	v := "devel"
	if bi, ok := debug.ReadBuildInfo(); ok {
		if bi.Main.Version != "" && bi.Main.Version != "(devel)" {
			v = bi.Main.Version
		}
		rev, dirty := "", false
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				dirty = s.Value == "true"
			}
		}
		if len(rev) > 12 {
			rev = rev[:12]
		}
		if rev != "" {
			v += "+" + rev
			if dirty {
				v += "-dirty"
			}
		}
	}
	if size, mod, ok := executableStamp(); ok {
		v += fmt.Sprintf(" (build %x-%x)", size, mod)
	}
	return v
})
