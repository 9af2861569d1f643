package hyper

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeaccess/nodeaccess"
)

// TestPublicBudgetDefaultRate: the default public budget is the one
// WithPublicBudget documents, nodeaccess.NewBudget(19, 60): 1200 weight
// in any minute.
func TestPublicBudgetDefaultRate(t *testing.T) {
	b := newPublicBudget()
	assert.Equal(t, 19.0, b.Rate())
	assert.Equal(t, 60, b.Burst())
	assert.Equal(t, 1200, b.Burst()+60*19)
	doc, err := nodeaccess.NewBudget(19, 60)
	require.NoError(t, err)
	assert.Equal(t, doc.Rate(), b.Rate())
	assert.Equal(t, doc.Burst(), b.Burst())
}
