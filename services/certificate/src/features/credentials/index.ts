/** The credentials feature's face: what other features use of it. */
export { linkedInAddToProfileUrl, type LinkedInCertification } from './share-links';
