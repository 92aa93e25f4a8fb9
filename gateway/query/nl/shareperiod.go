package nl

// periodAfterRows reports a share whose period follows the counted row noun while every
// value named stands before it ("what percentage of Japan's declarations are from 2023"):
// the values say which rows, the period is the share's condition.
func (r *reader) periodAfterRows() bool {
	c := -1
	for k, it := range r.items {
		if it == r.counted {
			c = k
		}
	}
	if c < 0 {
		return false
	}
	dated := false
	for k, it := range r.items {
		switch {
		case it.date != nil && k < c, it.kind(mValue) != nil && it.used && k > c, it.num != nil && it.used && k > c:
			return false
		case it.date != nil:
			dated = true
		}
	}
	return dated
}
