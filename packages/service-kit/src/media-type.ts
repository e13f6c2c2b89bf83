import { ApiError } from './errors';

export class UnsupportedMediaTypeError extends ApiError {
  constructor(message = 'Content-Type must be application/json') {
    super(415, 'unsupported_media_type', message);
  }
}
