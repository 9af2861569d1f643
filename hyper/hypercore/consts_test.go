package hypercore_test

// testKey is the access key of the tests' local nodes.
const testKey = "t3st-KEY"
