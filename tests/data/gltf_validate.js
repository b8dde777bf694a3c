// Validates glTF/GLB files with the Khronos glTF validator (npm package
// gltf-validator, installed under the folder given first) and prints one
// line per file with its error and warning counts, then each error.
// Exit 0: no errors; 1: errors; 2: the validator is not installed.
'use strict';
const fs = require('fs');
const path = require('path');

const [prefix, ...files] = process.argv.slice(2);
let validator;
try {
  validator = require(path.join(prefix, 'node_modules', 'gltf-validator'));
} catch (e) {
  console.log(`gltf-validator is not installed under ${prefix}`);
  process.exit(2);
}

async function validate(file) {
  const readBeside = (uri) =>
    Promise.resolve(new Uint8Array(fs.readFileSync(path.join(path.dirname(file), decodeURIComponent(uri)))));
  const report = await validator.validateBytes(new Uint8Array(fs.readFileSync(file)), {
    uri: path.basename(file),
    externalResourceFunction: readBeside,
  });
  const issues = report.issues;
  console.log(`${path.basename(file)}: ${issues.numErrors} errors, ${issues.numWarnings} warnings`);
  for (const m of issues.messages)
    if (m.severity === 0)
      console.log(`  ${m.code} at ${m.pointer || '-'}: ${m.message}`);
  return issues.numErrors;
}

(async () => {
  let errors = 0;
  for (const file of files)
    errors += await validate(file);
  process.exit(errors ? 1 : 0);
})();
