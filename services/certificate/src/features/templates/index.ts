/** The templates feature's face: what other features use of it. */
export { customFieldIssues } from './custom-field-values';
export { type ImageMeta, readImageSize } from './image-size';
export { type PlaceholderValues, fillPlaceholders, placeholdersIn } from './template-placeholders';
export { type DateFormat, type TemplateDefinition, type TemplateFont, templateDefinitionSchema } from './templates.schema';
export { type DecodeImages, type ImageToDecode, unreadableImage } from './template-images';
export { type PreviewDraft, type TemplateDraft, type TemplatesService } from './templates.service';
