import { browserPaths } from "./paths";
import { BlockQuery, BlockRequest, BlockResponse, BlocksQuery, BlocksResponse } from "../blocks";
import { DiscoveryDecisionRequest, DiscoveryDecisionResponse, DiscoveryQuery, DiscoveryResponse } from "../discovery";
import { AutoLikeResponse, LikeQuery, LikeRequest, LikeResponse, LikesQuery, LikesResponse, UnlikeResponse } from "../likes";
import { MemberQuery, MemberResponse, MembersQuery, MembersResponse } from "../members";
import { photoUploadField, PhotoQuery, PhotosResponse, PhotoUpdate, PhotoUploadResponse } from "../photos";
import { GeocodeQuery, GeocodeResponse } from "../profile";
import { ReportRequest, ReportResponse } from "../staff-moderation";
import { json, endpointGroup } from "./endpoint";

/** Members, their profiles and photos, likes, blocks, the discovery games and reports (api/http/user.ts, photos.ts, likes.ts, blocks.ts, discovery.ts, geocode.ts, reports.ts). */
export const members = endpointGroup("members", "Finding members, their profiles, likes and blocks, and the member's own photos.", {
  members: {
    method: "get",
    path: "/api/members.php",
    summary: "Searches the site's members, newest first (visitors where logged-out search is allowed)",
    caller: "anyone",
    query: MembersQuery,
    withUser: true,
    answers: { 200: json(MembersResponse, "a page of members") },
    errors: ["authentication_required"],
  },
  member: {
    method: "get",
    path: "/api/member.php",
    summary: "Another member's profile as the viewer may see it, and the viewer's relation to them",
    caller: "anyone",
    query: MemberQuery,
    withUser: true,
    answers: { 200: json(MemberResponse, "the profile") },
    errors: ["authentication_required", "not_found", "blocked_by_member"],
  },
  geocode: {
    method: "get",
    path: browserPaths.geocode,
    summary: "The country, region and city at a position (the browser's location on the profile form)",
    caller: "member",
    query: GeocodeQuery,
    answers: { 200: json(GeocodeResponse, "the place, or result: false") },
  },
  photos: {
    method: "get",
    path: "/api/photos.php",
    summary: "The member's own photos",
    caller: "member",
    answers: { 200: json(PhotosResponse, "the photos") },
  },
  uploadPhoto: {
    method: "post",
    path: "/api/photos.php",
    summary: "Uploads a photo (it waits for review)",
    caller: "member",
    multipart: { file: photoUploadField },
    answers: {
      201: json(PhotoUploadResponse, "the new photo and the whole list"),
    },
    errors: ["file_too_large", "unsupported_image", "photo_limit_reached", "premium_required"],
  },
  updatePhoto: {
    method: "put",
    path: "/api/photo.php",
    summary: "Makes a photo the main one",
    caller: "member",
    body: PhotoUpdate,
    answers: { 200: json(PhotosResponse, "the photos") },
    errors: ["not_found"],
  },
  deletePhoto: {
    method: "delete",
    path: "/api/photo.php",
    summary: "Deletes a photo (or dismisses a rejected one)",
    caller: "member",
    query: PhotoQuery,
    answers: { 200: json(PhotosResponse, "the photos") },
    errors: ["not_found"],
  },
  like: {
    method: "post",
    path: "/api/like.php",
    summary: "Likes a member; liking back makes a match",
    caller: "member",
    body: LikeRequest,
    answers: {
      200: json(LikeResponse, "the like, and whether it is a match"),
    },
    errors: ["not_found", "blocked_by_member"],
  },
  unlike: {
    method: "delete",
    path: "/api/like.php",
    summary: "Takes a like back (a match ends with it)",
    caller: "member",
    query: LikeQuery,
    answers: { 200: json(UnlikeResponse, "whether a like was removed") },
  },
  likes: {
    method: "get",
    path: "/api/likes.php",
    summary: "The member's likes: received, sent and matches (or one of them, `tab`)",
    caller: "member",
    query: LikesQuery,
    withUser: true,
    answers: { 200: json(LikesResponse, "the likes") },
  },
  autoLike: {
    method: "get",
    path: browserPaths.autoLike,
    summary: "A fictional profile of the site that fits the member, for the like modal",
    caller: "member",
    answers: { 200: json(AutoLikeResponse, "the profile, or profile: null") },
  },
  block: {
    method: "post",
    path: "/api/block.php",
    summary: "Blocks a member (the pair's likes and chats go)",
    caller: "member",
    body: BlockRequest,
    answers: { 200: json(BlockResponse, "blocked") },
    errors: ["not_found"],
  },
  unblock: {
    method: "delete",
    path: "/api/block.php",
    summary: "Unblocks a member",
    caller: "member",
    query: BlockQuery,
    answers: { 200: json(BlockResponse, "unblocked") },
    errors: ["not_found"],
  },
  blocks: {
    method: "get",
    path: "/api/blocks.php",
    summary: "The members the member blocked, newest block first",
    caller: "member",
    query: BlocksQuery,
    answers: { 200: json(BlocksResponse, "a page of blocked members") },
  },
  discovery: {
    method: "get",
    path: "/api/discovery.php",
    summary: "The next candidate of a discovery game (swipe, match finder)",
    caller: "member",
    query: DiscoveryQuery,
    answers: {
      200: json(DiscoveryResponse, "the candidate, or profile: null"),
    },
  },
  discoveryAnswer: {
    method: "post",
    path: "/api/discovery.php",
    summary: "Likes or passes a candidate",
    caller: "member",
    body: DiscoveryDecisionRequest,
    answers: {
      200: json(DiscoveryDecisionResponse, "the decision and the next candidate"),
    },
    errors: ["not_found", "swipe_limit_reached"],
  },
  reportMember: {
    method: "post",
    path: "/api/report.php",
    summary: "Reports a profile or a message to the site's staff",
    caller: "member",
    body: ReportRequest,
    answers: { 201: json(ReportResponse, "the report is queued") },
    errors: ["not_found", "too_many_requests"],
  },
});
