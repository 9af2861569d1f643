module github.com/nodeaccess/nodeaccess/examples/redisbudget

go 1.25.0

replace github.com/nodeaccess/nodeaccess => ../../

require (
	github.com/go-redis/redis_rate/v10 v10.0.1
	github.com/nodeaccess/nodeaccess v0.0.0-00010101000000-000000000000
	github.com/redis/go-redis/v9 v9.22.0
)

require (
	github.com/cespare/xxhash/v2 v2.3.0 // indirect
	go.uber.org/atomic v1.12.0 // indirect
	golang.org/x/sys v0.47.0 // indirect
	golang.org/x/time v0.14.0 // indirect
)
