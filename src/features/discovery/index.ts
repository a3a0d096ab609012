// What other features use of the Discovery view: the panel naming API groups that are down.
export { UnavailablePanel } from './UnavailablePanel';
