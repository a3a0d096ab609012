import { run } from './lists';
const r = await run((l) => console.log(l));
console.log(r);
