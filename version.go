package nodeaccess

// Version is the SDK's version, sent in the User-Agent header as
// "nodeaccess-go/<Version>".
const Version = "0.1.0"
