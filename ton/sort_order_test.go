package ton_test

import (
	"fmt"
	"testing"

	"github.com/nodeaccess/nodeaccess/ton"
	"github.com/stretchr/testify/assert"
)

// SortOrder prints as the API spells it, under every verb of fmt.
func TestSortOrderString(t *testing.T) {
	assert.Equal(t, "asc", fmt.Sprint(ton.SortAsc))
	assert.Equal(t, "desc", fmt.Sprint(ton.SortDesc))
	assert.Equal(t, "", fmt.Sprint(ton.SortOrder("")))
	assert.Equal(t, "asc desc", fmt.Sprintf("%s %v", ton.SortAsc, ton.SortDesc))
}
