// Package plural picks the word for a count, the one way every message
// of adtest says "1 test" and "2 tests".
package plural

// Of is one when n is 1, else many.
func Of(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// S is the suffix of a regular plural: "" for 1, else "s".
func S(n int) string { return Of(n, "", "s") }
