/**
@module `cardterm/testing`: snapshot helpers for tool authors. A card frame carries text and style
runs, so a colour regression shows in the same diff as a text one.
*/
export {serializeFrame} from './serialize-frame.js';
export {cardForTool, renderCardFrame, type FrameResult, type RenderCardFrameOptions} from './render-card-frame.js';
