// compile.js compiles Probe.sol with the solc npm package (standard JSON) and
// writes Probe.abi (the ABI as JSON) and Probe.bin-runtime (the runtime
// bytecode as hex, no 0x, no newline). See doc.go for the exact commands.
//
// Usage: NODE_PATH=<dir with node_modules> node compile.js <dir of Probe.sol>
const fs = require('fs');
const path = require('path');
const solc = require('solc');

const dir = process.argv[2] || '.';
const source = fs.readFileSync(path.join(dir, 'Probe.sol'), 'utf8');
const input = {
  language: 'Solidity',
  sources: { 'Probe.sol': { content: source } },
  settings: {
    evmVersion: 'prague',
    optimizer: { enabled: true, runs: 200 },
    metadata: { bytecodeHash: 'none' },
    outputSelection: { 'Probe.sol': { Probe: ['abi', 'evm.deployedBytecode.object'] } },
  },
};
const out = JSON.parse(solc.compile(JSON.stringify(input)));
let failed = false;
for (const e of out.errors || []) {
  console.error(e.formattedMessage);
  if (e.severity === 'error') failed = true;
}
if (failed) process.exit(1);
const c = out.contracts['Probe.sol'].Probe;
fs.writeFileSync(path.join(dir, 'Probe.abi'), JSON.stringify(c.abi) + '\n');
fs.writeFileSync(path.join(dir, 'Probe.bin-runtime'), c.evm.deployedBytecode.object);
console.error('solc ' + solc.version());
