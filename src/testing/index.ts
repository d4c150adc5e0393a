/**
@module `cardterm/testing`: snapshot helpers for tool authors.
*/
export {};
