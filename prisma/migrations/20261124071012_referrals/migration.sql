-- CreateTable
CREATE TABLE "ReferralAdvocate" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shopId" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "emailKey" TEXT NOT NULL,
    "customerGid" TEXT,
    "firstName" TEXT NOT NULL DEFAULT '',
    "token" TEXT NOT NULL,
    "friendCode" TEXT,
    "friendDiscountGid" TEXT,
    "disabledAt" DATETIME,
    "source" TEXT NOT NULL DEFAULT 'widget',
    "affiliateId" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "ReferralAdvocate_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "Shop" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ReferralVisit" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shopId" TEXT NOT NULL,
    "advocateId" TEXT NOT NULL,
    "ipHash" TEXT,
    "deviceId" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "ReferralVisit_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "Shop" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "ReferralVisit_advocateId_fkey" FOREIGN KEY ("advocateId") REFERENCES "ReferralAdvocate" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ReferralFriendCode" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shopId" TEXT NOT NULL,
    "advocateId" TEXT NOT NULL,
    "code" TEXT NOT NULL,
    "requestKey" TEXT NOT NULL,
    "discountGid" TEXT,
    "usedOrderGid" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "ReferralFriendCode_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "Shop" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "ReferralFriendCode_advocateId_fkey" FOREIGN KEY ("advocateId") REFERENCES "ReferralAdvocate" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Referral" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shopId" TEXT NOT NULL,
    "advocateId" TEXT NOT NULL,
    "orderGid" TEXT NOT NULL,
    "orderName" TEXT NOT NULL DEFAULT '',
    "friendEmail" TEXT,
    "friendCustomerGid" TEXT,
    "source" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "friendCode" TEXT,
    "currency" TEXT NOT NULL,
    "orderTotal" INTEGER NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "checks" TEXT NOT NULL DEFAULT '[]',
    "blockedRule" TEXT,
    "overrideNote" TEXT,
    "overriddenBy" TEXT,
    "overriddenAt" DATETIME,
    "holdUntil" DATETIME NOT NULL,
    "rewardKind" TEXT NOT NULL,
    "rewardValue" INTEGER NOT NULL,
    "rewardCurrency" TEXT NOT NULL,
    "rewardCode" TEXT,
    "rewardGid" TEXT,
    "payoutId" TEXT,
    "rewardedAt" DATETIME,
    "cancelledAt" DATETIME,
    "ipHash" TEXT,
    "deviceId" TEXT,
    "placedAt" DATETIME NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Referral_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "Shop" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Referral_advocateId_fkey" FOREIGN KEY ("advocateId") REFERENCES "ReferralAdvocate" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "ReferralAdvocate_shopId_customerGid_idx" ON "ReferralAdvocate"("shopId", "customerGid");

-- CreateIndex
CREATE UNIQUE INDEX "ReferralAdvocate_shopId_emailKey_key" ON "ReferralAdvocate"("shopId", "emailKey");

-- CreateIndex
CREATE UNIQUE INDEX "ReferralAdvocate_shopId_token_key" ON "ReferralAdvocate"("shopId", "token");

-- CreateIndex
CREATE UNIQUE INDEX "ReferralAdvocate_shopId_friendCode_key" ON "ReferralAdvocate"("shopId", "friendCode");

-- CreateIndex
CREATE INDEX "ReferralVisit_advocateId_createdAt_idx" ON "ReferralVisit"("advocateId", "createdAt");

-- CreateIndex
CREATE INDEX "ReferralVisit_shopId_ipHash_createdAt_idx" ON "ReferralVisit"("shopId", "ipHash", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "ReferralFriendCode_shopId_code_key" ON "ReferralFriendCode"("shopId", "code");

-- CreateIndex
CREATE UNIQUE INDEX "ReferralFriendCode_advocateId_requestKey_key" ON "ReferralFriendCode"("advocateId", "requestKey");

-- CreateIndex
CREATE INDEX "Referral_shopId_status_createdAt_idx" ON "Referral"("shopId", "status", "createdAt");

-- CreateIndex
CREATE INDEX "Referral_advocateId_createdAt_idx" ON "Referral"("advocateId", "createdAt");

-- CreateIndex
CREATE INDEX "Referral_status_holdUntil_idx" ON "Referral"("status", "holdUntil");

-- CreateIndex
CREATE UNIQUE INDEX "Referral_shopId_orderGid_key" ON "Referral"("shopId", "orderGid");

