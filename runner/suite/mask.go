package suite

import (
	"github.com/adtest/adtest/lang"
)

// IsSecretName reports whether a variable name looks secret: it contains
// SECRET, TOKEN, PASSWORD or KEY (case-insensitive). Its value is masked
// by the one masker, drivers.Masker.
func IsSecretName(name string) bool { return lang.IsSecretName(name) }
