>> {"jsonrpc":"2.0","id":1,"method":"eth_getBalance","params":["0x7dcd17433742f4c0ca53122ab541d0ba67fc27df",{"blockHash":"0xa38f2a6f7d276298d8e7a9bfa28625e4dc8948021f5a7369d0a04571879e98d2","requireCanonical":true}]}
<< {"jsonrpc":"2.0","id":1,"result":"0x56"}
