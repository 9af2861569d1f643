// Package bench compares nodeaccess with peer libraries. It is a module of
// its own so that users of the SDK never download the peers; everything in it
// lives in test files (see README.md).
package bench
