package lang

import "strings"

// EditDistance is the edit distance between a and b, counted in runes:
// insertions, deletions, substitutions and transpositions of two adjacent
// runes cost one each (optimal string alignment), so the typo "wiat" is one
// edit from "wait", as people count it.
func EditDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	// Three rows: two back (for transpositions), one back, the current.
	prev2 := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}

// Closest returns the candidate nearest to word by edit distance (ties: the
// earlier candidate), when that distance is at most maxDist and smaller than
// the word itself (so "x" does not suggest "id"). Comparison ignores case.
func Closest(word string, candidates []string, maxDist int) (string, bool) {
	w := strings.ToLower(word)
	best, bestDist := "", maxDist+1
	for _, c := range candidates {
		d := EditDistance(w, strings.ToLower(c))
		if d < bestDist {
			best, bestDist = c, d
		}
	}
	if best == "" || bestDist >= len([]rune(w)) {
		return "", false
	}
	return best, true
}

// SuggestionDistance is the edit-distance budget for "did you mean" on a word:
// 1 for short words, 2 from five runes, 3 from nine.
func SuggestionDistance(word string) int {
	switch n := len([]rune(word)); {
	case n >= 9:
		return 3
	case n >= 5:
		return 2
	default:
		return 1
	}
}
