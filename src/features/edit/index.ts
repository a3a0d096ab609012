// What other features may use of the Edit view: the write-mode table (the Content-Type and the
// method of each way to write an object).
export { WRITE_MODE_TABLE } from './writeModes';
