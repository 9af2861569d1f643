// Package config holds the settings that options write and that the
// transport reads. It exists so that the root package, the transport and
// the chain packages can share one settings type without an import cycle;
// users never name it.
package config
