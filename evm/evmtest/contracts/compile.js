// compile.js compiles LocalToken.sol and Scenario.sol with the solc npm
// package (standard JSON) and writes, for each contract, <Name>.abi (the ABI
// as JSON) and <Name>.bin-runtime (the runtime bytecode as hex, no 0x, no
// newline), except for Child, made only by Factory, of which it writes
// Child.bin (the creation bytecode, which CREATE2 addresses hash). See ../doc.go for the commands.
//
// Usage: NODE_PATH=<dir with node_modules> node compile.js <dir of the .sol files>
const fs = require('fs');
const path = require('path');
const solc = require('solc');

const dir = process.argv[2] || '.';
const files = ['LocalToken.sol', 'Scenario.sol'];
const sources = {};
for (const f of files) sources[f] = { content: fs.readFileSync(path.join(dir, f), 'utf8') };
const input = {
  language: 'Solidity',
  sources,
  settings: {
    evmVersion: 'prague',
    optimizer: { enabled: true, runs: 200 },
    metadata: { bytecodeHash: 'none' },
    outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object', 'evm.deployedBytecode.object'] } },
  },
};
const out = JSON.parse(solc.compile(JSON.stringify(input)));
let failed = false;
for (const e of out.errors || []) {
  console.error(e.formattedMessage);
  if (e.severity === 'error') failed = true;
}
if (failed) process.exit(1);
const want = { 'LocalToken.sol': ['LocalToken'], 'Scenario.sol': ['Forwarder', 'Child', 'Factory'] };
for (const [file, names] of Object.entries(want)) {
  for (const name of names) {
    const c = out.contracts[file][name];
    fs.writeFileSync(path.join(dir, name + '.abi'), JSON.stringify(c.abi) + '\n');
    if (name === 'Child') {
      // Made by Factory only: its creation code is what CREATE2 hashes.
      fs.writeFileSync(path.join(dir, name + '.bin'), c.evm.bytecode.object);
    } else {
      fs.writeFileSync(path.join(dir, name + '.bin-runtime'), c.evm.deployedBytecode.object);
    }
  }
}
console.error('solc ' + solc.version());
