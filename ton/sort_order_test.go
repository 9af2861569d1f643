package ton_test

import (
	"fmt"
	"testing"

	"github.com/nodeaccess/nodeaccess/ton"
	"github.com/stretchr/testify/assert"
)

// SortOrder prints as the API spells it, under String and fmt alike.
func TestSortOrderString(t *testing.T) {
	assert.Equal(t, "asc", ton.SortAsc.String())
	assert.Equal(t, "desc", fmt.Sprint(ton.SortDesc))
	assert.Equal(t, "", ton.SortOrder("").String())
	var s fmt.Stringer = ton.SortAsc
	assert.Equal(t, "asc", s.String())
}
