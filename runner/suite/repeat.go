package suite

import "fmt"

// MaxRepeatEach bounds --repeat-each.
const MaxRepeatEach = 1000

// RepeatEach returns every test n times in a row, each repetition its own
// test named "<name> [k/n]" (as Playwright Test's --repeat-each), so every
// reporter lists it as an entry of its own with a stable name. Retries,
// timeouts and skips carry over to each repetition; n <= 1 returns tests.
func RepeatEach(tests []*Test, n int) []*Test {
	if n <= 1 {
		return tests
	}
	out := make([]*Test, 0, len(tests)*n)
	for _, t := range tests {
		for k := 1; k <= n; k++ {
			r := *t
			r.Name = fmt.Sprintf("%s [%d/%d]", t.Name, k, n)
			r.Repeat, r.RepeatOf = k, n
			out = append(out, &r)
		}
	}
	return out
}
